// The same rules under oxlint's JS plugins find exactly what they find under ESLint: rule, file,
// line and column, on the parity cases (one or more shapes per rule), the fixture projects, the
// example service and — when the labelled real code sits beside the repository — the real-code
// development set at its real paths. oxlint runs the built plugin with the `.oxlintrc.json` that
// docs/oxlint.md documents (read from the page, so the page cannot drift from what is tested).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, test } from 'vitest';

const repo = resolve(import.meta.dirname, '..', '..');
const pluginEntry = join(repo, 'dist', 'eslint-plugin.js');
const oxlintBin = join(repo, 'node_modules', 'oxlint', 'bin', 'oxlint');
const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The `.oxlintrc.json` block of docs/oxlint.md, with the plugin named by the built entry's path. */
function documentedOxlintConfig(): Record<string, unknown> {
  const page = readFileSync(join(repo, 'docs', 'oxlint.md'), 'utf8');
  const block = /<!-- oxlintrc -->\s*```json\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/oxlint.md has no <!-- oxlintrc --> JSON block');
  const config = JSON.parse(block) as { jsPlugins: string[] };
  return { ...config, jsPlugins: config.jsPlugins.map((p) => (p === 'replica-guard/eslint-plugin' ? pluginEntry : p)) };
}

/** A copy of `from` in a temp dir (oxlint reads configs from the tree; the copy keeps the repo clean). */
function copyTree(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rg-parity-'));
  temps.push(dir);
  cpSync(from, dir, { recursive: true });
  return dir;
}

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !join(e.parentPath, e.name).includes('node_modules'))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function eslintFindings(dir: string): Promise<string[]> {
  const plugin = (await import(pluginEntry)).default as { configs: { recommended: object } };
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.{ts,tsx,mts,cts}'], languageOptions: { parser: tsParser as never } },
      { languageOptions: { sourceType: 'module' }, linterOptions: { reportUnusedDisableDirectives: 'off' } },
      plugin.configs.recommended as never,
    ],
  });
  const results = await eslint.lintFiles(sourceFiles(dir));
  return (
    results
      .flatMap((r) =>
        r.messages.map((m) =>
          m.ruleId
            ? `${m.ruleId.replace('replica-guard/', '')} ${relative(dir, r.filePath)}:${m.line}:${m.column}`
            : `fatal ${relative(dir, r.filePath)}`,
        ),
      )
      // Only this plugin's findings (a file's disable comments may name rules of other plugins).
      .filter((line) => !line.startsWith('fatal') && !/^\S*\//.test(line))
      .sort()
  );
}

function oxlintFindings(dir: string): string[] {
  writeFileSync(join(dir, '.oxlintrc.json'), JSON.stringify(documentedOxlintConfig()));
  let out: string;
  try {
    out = execFileSync(process.execPath, [oxlintBin, '--format', 'json', '-c', join(dir, '.oxlintrc.json'), ...sourceFiles(dir)], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
  } catch (error) {
    out = (error as { stdout?: string }).stdout ?? '';
    if (!out) throw error;
  }
  const report = JSON.parse(out) as {
    diagnostics: { code?: string; filename: string; labels: { span: { line: number; column: number } }[] }[];
  };
  return report.diagnostics
    .filter((d) => d.code?.startsWith('replica-guard('))
    .map(
      (d) =>
        `${d.code!.slice('replica-guard('.length, -1)} ${relative(dir, resolve(dir, d.filename))}:${d.labels[0]!.span.line}:${d.labels[0]!.span.column}`,
    )
    .sort();
}

async function expectParity(dir: string, minimum: number): Promise<void> {
  const underEslint = await eslintFindings(dir);
  expect(underEslint.length).toBeGreaterThanOrEqual(minimum);
  expect(oxlintFindings(dir)).toEqual(underEslint);
}

describe('oxlint parity', () => {
  test('the parity cases: every rule, the same findings', async () => {
    const dir = copyTree(join(repo, 'test', 'oxlint', 'cases'));
    const findings = await eslintFindings(dir);
    // Each rule reports at least once here, so parity is checked for all seven.
    expect(new Set(findings.map((f) => f.split(' ')[0]))).toEqual(
      new Set([
        'no-unguarded-schedule',
        'no-session-advisory-lock',
        'no-read-then-write',
        'require-atomic-claim',
        'require-jetstream-msg-id',
        'no-in-app-migrations',
        'migrate-entrypoint',
      ]),
    );
    expect(oxlintFindings(dir)).toEqual(findings);
  });

  test('the example service', async () => {
    await expectParity(copyTree(join(repo, 'examples', 'billing-service')), 1);
  });

  test('the fixture projects', async () => {
    const projects = join(repo, 'test', 'rules', 'projects');
    const dirs = existsSync(projects) ? readdirSync(projects).map((name) => join(projects, name)) : [];
    for (const project of dirs) {
      const dir = copyTree(project);
      expect(oxlintFindings(dir), project).toEqual(await eslintFindings(dir));
    }
    // One oxlint and one ESLint run per project: about 30 s on a quiet host, more under load.
  }, 180_000);

  // The labelled real code (../shared/real-code, beside the repository in CI and in development).
  const realCode = resolve(repo, '..', 'shared', 'real-code');
  test.runIf(existsSync(join(realCode, 'manifest.tsv')))('the real-code development set at its real paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-parity-real-'));
    temps.push(dir);
    const names = readdirSync(join(realCode, 'files'));
    for (const row of readFileSync(join(realCode, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1)) {
      const [id, repository, , path] = row.split('\t');
      const file = names.find((n) => n.startsWith(`${id}__`));
      if (!file || !repository || !path) continue;
      const target = join(dir, repository.replace('/', '__'), path);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(realCode, 'files', file), target);
    }
    await expectParity(dir, 10);
  });
});
