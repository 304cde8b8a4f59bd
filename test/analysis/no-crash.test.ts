// Every rule on (the strict config: all rules, every schedule reported), over a generated project
// whose cross-file edges are all broken in the ways real trees break them: imports of missing
// modules, import cycles (direct and through `export *`), a generated module above the summary
// size bound, a module that does not parse, a tsconfig whose `extends` is missing or circular and
// whose `paths` are malformed, package.json files with malformed `imports` and `workspaces`, and
// symlink loops. Linted with typescript-eslint's parser and with espree (JavaScript), with and
// without settings: no exception, no fatal message outside the file that does not parse, and the
// findings of the healthy files are still reported.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clearProjectModules, clearResolutionCaches } from '../../analysis/modules/index.js';
import plugin from '../../rules/index.js';

/**
 * A set-up function that runs the migrator: a call of it from the app is a schema write. Named for
 * set-up, not as a migration step (`migrateGone()` is reported by its name when its module cannot
 * be read): here the module analysis alone decides.
 */
const setup = (name: string, extra = '') => `import knex from 'knex';
${extra}
const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
export async function ${name}() {
  await db.migrate.latest();
}
`;

/** ~1.5 MB of generated code, above the module-summary size bound (1 MB), ending in a set-up function. */
function hugeModule(): string {
  const filler = Array.from({ length: 24_000 }, (_, i) => `export const generated${i} = { id: ${i}, label: 'row ${i}' };`);
  return `${filler.join('\n')}\n${setup('prepareDatabaseHuge')}`;
}

/**
 * The healthy module. Each edge leads to a set-up function that migrates: through a module that
 * can be read (an import cycle, an \`export *\` cycle, tsconfig \`paths\` beside a malformed entry,
 * package.json \`imports\` beside malformed ones, a workspace package beside a symlink loop) the
 * call is reported; a module the analysis cannot read (missing, too big, does not parse, a
 * symlink loop, a malformed target) answers "unknown" and the call is not.
 */
const main = `import { Pool } from 'pg';
import { prepareDatabaseCycle } from './cycle-a.js';
import { prepareDatabaseStar, prepareDatabaseNotExported } from './star-b.js';
import { prepareDatabaseHuge } from './huge.js';
import { prepareDatabaseBroken } from './broken.js';
import { prepareDatabaseGone } from './does-not-exist.js';
import { prepareDatabaseViaPaths } from '@app/paths-target';
import { prepareDatabaseViaBrokenPaths } from '@broken/anything';
import { prepareDatabaseViaImports } from '#jobs/target';
import { prepareDatabaseViaBadImports } from '#bad';
import { prepareDatabaseLoop } from './self-loop';
import { prepareDatabaseWorkspace } from '@crash/ws-pkg';

const pool = new Pool();

export async function boot() {
  await prepareDatabaseCycle();
  await prepareDatabaseStar();
  await prepareDatabaseNotExported();
  await prepareDatabaseHuge();
  await prepareDatabaseBroken();
  await prepareDatabaseGone();
  await prepareDatabaseViaPaths();
  await prepareDatabaseViaBrokenPaths();
  await prepareDatabaseViaImports();
  await prepareDatabaseViaBadImports();
  await prepareDatabaseLoop();
  await prepareDatabaseWorkspace();
}

setInterval(async () => {
  await pool.query("UPDATE invoices SET reminded = true WHERE due < now()");
}, 60_000);

export async function exclusive() {
  await pool.query('SELECT pg_advisory_lock(42)');
}
`;

const cycleA = `import { helperB } from './cycle-b.js';
export async function prepareDatabaseCycle() {
  await helperB(1);
}
export async function helperA(depth) {
  return helperB(depth + 1);
}
`;
const cycleB =
  setup('prepareDatabaseNow', "import { helperA } from './cycle-a.js';") +
  `export async function helperB(depth) {
  if (depth > 3) return helperA(depth);
  await prepareDatabaseNow();
}
`;
const starA = setup('prepareDatabaseStar', "export * from './star-b.js';");
const starB = `export * from './star-a.js';
export { prepareDatabaseStar as again } from './star-a.js';
`;

/** The project tree for one source extension; `ts` also gets the tsconfig. */
function writeTree(root: string, ext: 'ts' | 'js'): void {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'crash-tree',
      type: 'module',
      workspaces: ['packages/**'],
      imports: { '#jobs/*': `./src/jobs/*.${ext}`, '#bad': 42, '#array': [null, {}, 7], '#deep': { node: { import: { default: false } } } },
    }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'], '@broken/*': 'not-an-array', '@empty/*': [] } },
    }),
    // Circular, with comments and trailing commas: TypeScript reports the cycle and keeps these options.
    'src/nested/tsconfig.json': `{
  // extends itself
  "extends": "./tsconfig.json",
  "compilerOptions": { "baseUrl": "..", "paths": { "@app/*": ["./*"], }, /* trailing comma */ },
}
`,
    'src/other/tsconfig.json': JSON.stringify({ extends: './missing-base.json', compilerOptions: { paths: 7 } }),
    'src/nested/package.json': '{ "imports": ',
    'src/other/package.json': JSON.stringify({ imports: 'oops', exports: 12 }),
    'packages/ws-pkg/package.json': JSON.stringify({ name: '@crash/ws-pkg', exports: { '.': { import: 42 } }, main: 7 }),
    [`packages/ws-pkg/src/index.${ext}`]: setup('prepareDatabaseWorkspace'),
    [`src/main.${ext}`]: main,
    [`src/nested/uses.${ext}`]: `import { prepareDatabaseViaPaths } from '@app/paths-target';\nimport { x } from '#anything';\nawait prepareDatabaseViaPaths(x);\n`,
    [`src/other/uses.${ext}`]: `import { prepareDatabaseViaImports } from '#jobs/target';\nawait prepareDatabaseViaImports();\n`,
    [`src/cycle-a.${ext}`]: cycleA,
    [`src/cycle-b.${ext}`]: cycleB,
    [`src/star-a.${ext}`]: starA,
    [`src/star-b.${ext}`]: starB,
    [`src/huge.${ext}`]: hugeModule(),
    [`src/broken.${ext}`]: 'export async function prepareDatabaseBroken( {\n  return;\n',
    [`src/paths-target.${ext}`]: setup('prepareDatabaseViaPaths'),
    [`src/jobs/target.${ext}`]: setup('prepareDatabaseViaImports'),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  // A file symlink to itself (ELOOP on stat; named so that the lint glob does not pick it, as
  // ESLint itself cannot read it), a directory loop inside src/ and inside the workspace packages
  // (a glob or a walk that follows it never ends).
  const loopFile = `src/self-loop.${ext === 'ts' ? 'cts' : 'cjs'}`;
  symlinkSync(loopFile.slice('src/'.length), join(root, loopFile));
  symlinkSync('..', join(root, 'src/loop'));
  symlinkSync('..', join(root, 'packages/ws-pkg/loop'));
}

const SETTINGS = {
  'replica-guard': {
    service: 'crash',
    guards: [{ module: './does-not-exist.js', name: 'withLease' }, 'inHouseGuard', { module: '#bad', name: 'x.y.z' }],
    migrateEntrypoints: ['src/migrate.*', '**/[unclosed'],
    migrationFiles: ['migrations/**'],
  },
};

interface Variant {
  name: string;
  ext: 'ts' | 'js';
  parser: Linter.Parser | undefined;
  settings: Record<string, unknown> | undefined;
}

const VARIANTS: Variant[] = [
  { name: 'typescript-eslint, TypeScript, no settings', ext: 'ts', parser: tseslint.parser as Linter.Parser, settings: undefined },
  { name: 'typescript-eslint, TypeScript, settings', ext: 'ts', parser: tseslint.parser as Linter.Parser, settings: SETTINGS },
  { name: 'typescript-eslint, JavaScript, settings', ext: 'js', parser: tseslint.parser as Linter.Parser, settings: SETTINGS },
  { name: 'espree, JavaScript, no settings', ext: 'js', parser: undefined, settings: undefined },
  { name: 'espree, JavaScript, settings', ext: 'js', parser: undefined, settings: SETTINGS },
];

const roots: Record<'ts' | 'js', string> = { ts: '', js: '' };
beforeAll(() => {
  for (const ext of ['ts', 'js'] as const) {
    roots[ext] = mkdtempSync(join(tmpdir(), `rg-no-crash-${ext}-`));
    writeTree(roots[ext], ext);
  }
});
afterAll(() => Object.values(roots).forEach((root) => root && rmSync(root, { recursive: true, force: true })));

/** Each message as `<rule|fatal> <file>:<line>:<column> <messageId>`, per linted file. */
async function lintTree(variant: Variant): Promise<Map<string, string[]>> {
  clearProjectModules();
  clearResolutionCaches();
  const root = roots[variant.ext];
  const strict = plugin.configs.strict;
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    ignorePatterns: [`src/huge.${variant.ext}`],
    overrideConfig: [
      {
        files: ['**/*.{ts,js}'],
        languageOptions: { ...(variant.parser ? { parser: variant.parser } : {}), sourceType: 'module', ecmaVersion: 'latest' },
        ...(variant.settings ? { settings: variant.settings } : {}),
      },
      { ...strict, plugins: { 'replica-guard': plugin as never } } as Linter.Config,
    ],
  });
  // Every file but the generated one (generated code is not linted; it is only imported).
  const results = await eslint.lintFiles([`src/**/*.${variant.ext}`, `packages/ws-pkg/src/*.${variant.ext}`]);
  const byFile = new Map<string, string[]>();
  for (const result of results) {
    const file = relative(root, result.filePath);
    byFile.set(
      file,
      result.messages.map((m) => `${m.ruleId ?? 'fatal'} ${file}:${m.line}:${m.column} ${m.messageId ?? m.message.split('\n')[0]}`),
    );
  }
  return byFile;
}

describe('every rule over a project whose cross-file edges are broken', () => {
  for (const variant of VARIANTS) {
    test(
      variant.name,
      async () => {
        const byFile = await lintTree(variant);
        const ext = variant.ext;
        const fatal = [...byFile.values()].flat().filter((m) => m.startsWith('fatal'));
        // Only the module that does not parse is a fatal message; nothing else fails.
        expect(fatal).toEqual([expect.stringMatching(new RegExp(`^fatal src/broken\\.${ext}:2:`))]);
        expect([...byFile.keys()].filter((f) => f.includes('loop'))).toEqual([]);
        // Through a cycle (17), an `export *` cycle (18), tsconfig `paths` beside a malformed entry
        // (23), package.json `imports` beside malformed ones (25), a workspace package whose `main` is
        // malformed (28); not through a name no module exports (19), the generated module (20), the
        // module that does not parse (21), a missing one (22), a malformed `paths` entry (24) or
        // `imports` target (26), a symlink loop (27).
        const main = `src/main.${ext}`;
        expect(byFile.get(main)).toEqual([
          `replica-guard/no-in-app-migrations ${main}:17:9 schemaWriteCall`,
          `replica-guard/no-in-app-migrations ${main}:18:9 schemaWriteCall`,
          `replica-guard/no-in-app-migrations ${main}:23:9 schemaWriteCall`,
          `replica-guard/no-in-app-migrations ${main}:25:9 schemaWriteCall`,
          `replica-guard/no-in-app-migrations ${main}:28:9 schemaWriteCall`,
          `replica-guard/no-unguarded-schedule ${main}:31:13 unguardedSchedule`,
          `replica-guard/no-session-advisory-lock ${main}:36:28 sessionLock`,
        ]);
        // Its tsconfig extends itself: its own `paths` still apply. The other folder's package.json
        // has a malformed `imports`, which Node refuses too: the call is not followed.
        expect(byFile.get(`src/nested/uses.${ext}`)).toEqual([
          `replica-guard/no-in-app-migrations src/nested/uses.${ext}:3:7 schemaWriteCall`,
        ]);
        expect(byFile.get(`src/other/uses.${ext}`)).toEqual([]);
        // The set-up functions are reported where they run the migrator.
        expect(byFile.get(`src/cycle-b.${ext}`)).toEqual([`replica-guard/no-in-app-migrations src/cycle-b.${ext}:5:9 schemaWriteCall`]);
      },
      120_000,
    );
  }
});
