// Fixture pairs `fixtures/<transform>/<case>.input.<ext>` → `<case>.output.<ext>`, discovered by
// globbing. Each input is copied into its own temp project (package.json name `svc`) and the
// whole engine runs on it, so the project step (setLeaseClient wiring) is covered too. Then:
// the output equals the file, parses, is lint-clean under the plugin (findings only under a
// manual marker), and a second run changes nothing.
// `UPDATE_FIXTURES=1 npx vitest run --project static test/codemods/fixtures.test.ts` rewrites the
// expected outputs (review the diff before committing).
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { afterAll, describe, expect, test } from 'vitest';
import { runCodemod } from '../../codemods/index.js';
import { transforms } from '../../codemods/registry.js';
import plugin from '../../rules/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = join(here, 'fixtures');
const update = process.env.UPDATE_FIXTURES === '1';
const scratch = mkdtempSync(join(tmpdir(), 'replica-codemod-fixtures-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const inputs = globSync('*/*.input.*', { cwd: fixturesDir }).sort();

function lint(file: string, text: string, parser: 'typescript' | 'espree'): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat', cwd: dirname(file) });
  const config: Linter.Config[] = [
    {
      ...(plugin.configs.recommended as Linter.Config),
      languageOptions: {
        ...(parser === 'typescript' ? { parser: tsParser as unknown as Linter.Parser } : {}),
        ecmaVersion: 'latest',
        sourceType:
          /\.c[jt]s$/.test(file) || (/\.js$/.test(file) && /\brequire\(/.test(text) && !/^import /m.test(text)) ? 'commonjs' : 'module',
        parserOptions: { ecmaFeatures: { jsx: /\.[jt]sx$/.test(file) } },
      },
      settings: { 'replica-guard': { service: 'svc' } },
    },
  ];
  return linter.verify(text, config, { filename: file });
}

function project(caseName: string, extension: string, text: string): { dir: string; file: string } {
  const dir = join(scratch, `${caseName}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  // A plain .js file that requires and never imports lives in a CommonJS package.
  const commonjs = /\brequire\(/.test(text) && !/^import /m.test(text);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/svc', type: commonjs ? 'commonjs' : 'module' }));
  const file = join(dir, `${caseName}.${extension}`);
  writeFileSync(file, text);
  return { dir, file };
}

test('fixtures exist for every transform in the registry', () => {
  for (const transform of transforms) {
    expect(inputs.filter((i) => i.startsWith(`${transform.name}/`)).length, transform.name).toBeGreaterThan(0);
  }
  expect(inputs.filter((i) => i.startsWith('guard-schedules/')).length).toBeGreaterThanOrEqual(30);
});

describe.each(inputs)('%s', (input) => {
  const transform = dirname(input);
  const match = /^(.*)\.input\.(\w+)$/.exec(basename(input));
  const caseName = match![1]!;
  const extension = match![2]!;
  const expectedPath = join(fixturesDir, transform, `${caseName}.output.${extension}`);
  const source = readFileSync(join(fixturesDir, input), 'utf8');

  test('output matches, parses, is lint-clean and a second run changes nothing', async () => {
    const { dir, file } = project(caseName, extension, source);
    const report = await runCodemod({ paths: ['.'], cwd: dir, transforms: [transform], force: true });
    expect(report.errors).toEqual([]);
    const output = readFileSync(file, 'utf8');
    if (update) writeFileSync(expectedPath, output);
    expect(output).toBe(readFileSync(expectedPath, 'utf8'));

    // Parses under both parsers a project could use (espree only for plain JavaScript).
    const parsers: Array<'typescript' | 'espree'> = /\.[cm]?jsx?$/.test(file) ? ['typescript', 'espree'] : ['typescript'];
    for (const parser of parsers) {
      const messages = lint(file, output, parser);
      expect(
        messages.filter((m) => m.fatal),
        `${parser} parse`,
      ).toEqual([]);
      const lines = output.split('\n');
      // Whatever the rule still reports must sit right under a manual marker.
      const unmarked = messages.filter((m) => !/replica-guard: manual/.test(lines[m.line - 2] ?? ''));
      expect(
        unmarked.map((m) => `${relative(dir, file)}:${m.line}: ${m.message}`),
        parser,
      ).toEqual([]);
    }

    const again = await runCodemod({ paths: ['.'], cwd: dir, transforms: [transform], force: true });
    expect(again.filesChanged).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(output);
  });
});
