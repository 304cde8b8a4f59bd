// The package as npm publishes it: `npm pack`, the tarball unpacked into node_modules (its
// dependencies and the dev tools linked from this repository — no network), then fresh projects —
// ES modules and CommonJS, moduleResolution node16 / nodenext / bundler — lint with the plugin,
// run the codemod, type-check the rewritten code against the packed types, and import the runtime.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lint, linkPackage, repoRoot, requireBuild, runNode, summarize, tempDir, writeFiles } from './temp-project.js';

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string; size: number }>;
}

const TOOLS = ['eslint', 'typescript-eslint', '@typescript-eslint/parser', '@typescript-eslint/utils', 'typescript', '@types/node'];

let root = '';
let packed: PackResult;

/** `node_modules/replica-guard` from the tarball, its dependencies linked, as `npm install` leaves it. */
function install(nodeModules: string, tools: readonly string[]): void {
  const target = join(nodeModules, 'replica-guard');
  mkdirSync(target, { recursive: true });
  const tar = spawnSync('tar', ['-xzf', join(root, packed.filename), '-C', target, '--strip-components=1'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    bin: Record<string, string>;
  };
  for (const name of [...Object.keys(manifest.dependencies), ...tools]) linkPackage(nodeModules, name);
  mkdirSync(join(nodeModules, '.bin'), { recursive: true });
  for (const [name, path] of Object.entries(manifest.bin)) symlinkSync(join('..', 'replica-guard', path), join(nodeModules, '.bin', name));
}

beforeAll(() => {
  requireBuild();
  root = tempDir('pack');
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: repoRoot, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack: ${pack.stderr}`);
  packed = (JSON.parse(pack.stdout) as PackResult[])[0]!;
  install(join(root, 'store', 'node_modules'), TOOLS);
  install(join(root, 'runtime-only', 'node_modules'), []);
  // Where `npx -p replica-guard` puts it: npm's cache, no optional peers.
  install(join(root, '_npx', '0a1b2c3d', 'node_modules'), []);
}, 120_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the tarball', () => {
  test('holds the build, the README and the LICENSE: no sources, no source maps, no docs', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((p) => !p.startsWith('dist/')).sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/bin.js']),
    );
    // 141 kB packed / 548 kB unpacked when written, 238 / 913 kB with the cross-file analysis and
    // the precision work, 284 / 1,120 kB with the schedule claims, heartbeats and claim look-alikes,
    // 291 / 1,150 kB with handed callbacks, factory results, locked re-reads and one-off commands,
    // 297 / 1,179 kB after round eight, 1,605 kB unpacked in round twenty-one. The limits catch what would
    // multiply it — source maps (57 % of the package once), a bundled dependency, a second copy of the
    // rules — not a round's rules.
    expect(packed.size).toBeLessThan(400_000);
    expect(packed.unpackedSize).toBeLessThan(1_700_000);
  });

  test('has one copy of the rules, shared by the plugin, the codemod API, the bin and the worker', () => {
    const dist = join(root, 'store', 'node_modules', 'replica-guard', 'dist');
    const withRuleMessage = readdirSync(dist).filter(
      (f) => f.endsWith('.js') && readFileSync(join(dist, f), 'utf8').includes('on every replica. Begin it with'),
    );
    expect(withRuleMessage).toHaveLength(1);
  });
});

describe('installed without its optional peers (a service that only uses the guards)', () => {
  const cwd = (): string => join(root, 'runtime-only');

  test('the runtime loads from ES modules and CommonJS', () => {
    writeFiles(cwd(), { 'package.json': JSON.stringify({ name: 'payments', private: true }) });
    const esm = runNode(['--input-type=module', '-e', "const g = await import('replica-guard'); console.log(typeof g.claimPeriod)"], cwd());
    const cjs = runNode(['-e', "console.log(typeof require('replica-guard').claimPeriod)"], cwd());
    expect([esm.stdout.trim(), esm.code, cjs.stdout.trim(), cjs.code]).toEqual(['function', 0, 'function', 0]);
  });

  test('replica-codemod names the install command and exits 2, with no stack trace', () => {
    writeFiles(cwd(), { 'package-lock.json': '{}', 'src/jobs.ts': 'setInterval(() => {}, 1000);\n' });
    const result = runNode([join(cwd(), 'node_modules', '.bin', 'replica-codemod'), 'src'], cwd());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      "replica-codemod: needs eslint, @typescript-eslint/parser, typescript (optional peer dependencies of replica-guard); install with: npm install --save-dev 'eslint@>=9.15' '@typescript-eslint/parser@^8' 'typescript@>=5 <6.1'",
    ]);
  });

  test("the install command is the project's package manager's", () => {
    const pnpmProject = join(root, 'pnpm-project');
    writeFiles(pnpmProject, { 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n", 'src/jobs.ts': 'setInterval(() => {}, 1000);\n' });
    const result = runNode([join(cwd(), 'node_modules', '.bin', 'replica-codemod'), 'src'], join(pnpmProject, 'src'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "install with: pnpm add --save-dev 'eslint@>=9.15' '@typescript-eslint/parser@^8' 'typescript@>=5 <6.1'\n",
    );
  });

  test('run through `npx -p replica-guard`, it names the npx command with the peers and the same arguments', () => {
    const bin = join(root, '_npx', '0a1b2c3d', 'node_modules', '.bin', 'replica-codemod');
    const result = runNode([bin, '--dry-run', 'src/'], cwd());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "install with: npx -p replica-guard -p 'eslint@>=9.15' -p '@typescript-eslint/parser@^8' -p 'typescript@>=5 <6.1' replica-codemod --dry-run src/\n",
    );
  });
});

describe('installed with its peers', () => {
  test('replica-codemod --help (through the npm bin link) prints the usage once, with examples', () => {
    const cwd = join(root, 'store');
    const help = runNode([join(cwd, 'node_modules', '.bin', 'replica-codemod'), '--help'], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout.match(/^Usage: replica-codemod/gm)).toHaveLength(1);
    expect(help.stdout).toContain('\nExamples:\n  replica-codemod --dry-run src/ ');
    expect(help.stdout).toContain(
      'npx -p replica-guard -p eslint -p @typescript-eslint/parser -p typescript replica-codemod --dry-run src/',
    );
  });
});

const JOBS = [
  "import { sendDigest } from './digest.js';",
  '',
  'export function startDigestJob(): NodeJS.Timeout {',
  '  return setInterval(async () => {',
  '    await sendDigest();',
  '  }, 60 * 60 * 1000);',
  '}',
  '',
].join('\n');

const DIGEST = [
  'export async function sendDigest(): Promise<void> {',
  "  await fetch('https://mail.internal/digest', { method: 'POST' });",
  '}',
  '',
].join('\n');

// The configs' types as ESLint's defineConfig and typescript-eslint's config helper see them.
const CONFIG_TYPES = [
  "import { defineConfig } from 'eslint/config';",
  "import tseslint from 'typescript-eslint';",
  "import replicaGuard from 'replica-guard/eslint-plugin';",
  '',
  'export const withDefineConfig = defineConfig([tseslint.configs.recommended, replicaGuard.configs.recommended, replicaGuard.configs.strict]);',
  'export const withTseslint = tseslint.config(replicaGuard.configs.recommended, replicaGuard.configs.strict);',
  '',
].join('\n');

const ESLINT_CONFIG = [
  "import tseslint from 'typescript-eslint';",
  "import replicaGuard from 'replica-guard/eslint-plugin';",
  '',
  'export default [tseslint.configs.base, replicaGuard.configs.recommended];',
  '',
].join('\n');

const projects = [
  { type: 'module', module: 'node16', moduleResolution: 'node16' },
  { type: 'module', module: 'nodenext', moduleResolution: 'nodenext' },
  { type: 'module', module: 'esnext', moduleResolution: 'bundler' },
  { type: 'commonjs', module: 'node16', moduleResolution: 'node16' },
  { type: 'commonjs', module: 'nodenext', moduleResolution: 'nodenext' },
] as const;

describe.each(projects)('a $type project, moduleResolution $moduleResolution', (project) => {
  test('lints, runs the codemod, type-checks the rewritten code and imports the runtime', () => {
    const cwd = join(root, `${project.type}-${project.moduleResolution}`);
    const esm = project.type === 'module';
    writeFiles(cwd, {
      'package.json': JSON.stringify({ name: '@acme/digest', private: true, type: project.type }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: project.module,
          moduleResolution: project.moduleResolution,
          target: 'ES2022',
          strict: true,
          noEmit: true,
          // As most projects have it: the packed declarations are checked where the code uses them
          // (checking all of @types/node and ESLint's declarations too takes ten times longer).
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['src'],
      }),
      'eslint.config.mjs': ESLINT_CONFIG,
      'src/jobs.ts': JOBS,
      'src/digest.ts': DIGEST,
      // A config file is an ES module; in a CommonJS package it is a .mts.
      [esm ? 'src/lint-config.ts' : 'src/lint-config.mts']: CONFIG_TYPES,
    });
    symlinkSync(join(root, 'store', 'node_modules'), join(cwd, 'node_modules'), 'dir');

    const before = summarize(lint(cwd, ['src']));
    expect(before.fatal).toEqual([]);
    expect(before.findings).toEqual(['src/jobs.ts:4:22 replica-guard/no-unguarded-schedule']);

    const codemod = runNode([join(cwd, 'node_modules', '.bin', 'replica-codemod'), 'src'], cwd);
    expect(codemod.stderr).toBe('');
    expect(codemod.code).toBe(0);
    const rewritten = readFileSync(join(cwd, 'src', 'jobs.ts'), 'utf8');
    // The key is `<service>:<job>`; how the job is named is the guard-schedules transform's business.
    expect(rewritten).toMatch(/^ {4}if \(!\(await claimPeriod\('digest:[\w:-]+', 60 \* 60 \* 1000\)\)\) return;$/m);

    const tsc = runNode([join(cwd, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], cwd);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);

    const load = esm
      ? "const g = await import('replica-guard'); const p = await import('replica-guard/eslint-plugin'); const c = await import('replica-guard/codemod'); console.log(await g.claimPeriod('digest:probe', 1000), p.default.configs.strict.name, typeof c.runCodemod)"
      : "const g = require('replica-guard'); const p = require('replica-guard/eslint-plugin'); const c = require('replica-guard/codemod'); g.claimPeriod('digest:probe', 1000).then((won) => console.log(won, p.default.configs.strict.name, typeof c.runCodemod))";
    const run = runNode(esm ? ['--input-type=module', '-e', load] : ['-e', load], cwd);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('true replica-guard/strict function');
    expect(run.code).toBe(0);
  }, 120_000);
});
