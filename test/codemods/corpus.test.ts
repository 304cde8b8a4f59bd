// The whole codemod (every transform in the registry, together) over one corpus: every fixture
// input of every transform, each in its own package as the fixture test sets it up, plus the
// `examples/` projects. Afterwards no finding of a rule some transform rewrites is left unless it
// sits under a `// replica-guard: manual` marker, every file parses, and a second run changes
// nothing. Fixture outputs are per transform; this catches transforms stepping on each other.
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCodemod, type CodemodReport } from '../../codemods/index.js';
import { transforms } from '../../codemods/registry.js';
import plugin from '../../rules/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'replica-codemod-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SOURCE = '**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}';
const fixtureInputs = globSync('*/*.input.*', { cwd: join(here, 'fixtures') }).sort();
/** Rules whose findings some transform claims to fix. */
const fixedRules = new Set(transforms.flatMap((t) => (t.rule ? [`replica-guard/${t.rule.name}`] : [])));

function isCommonJs(file: string, text: string): boolean {
  return /\.c[jt]s$/.test(file) || (/\.js$/.test(file) && /\brequire\(/.test(text) && !/^import /m.test(text));
}

function lint(file: string, text: string): Linter.LintMessage[] {
  const config: Linter.Config[] = [
    {
      ...(plugin.configs.recommended as Linter.Config),
      languageOptions: {
        parser: tsParser as unknown as Linter.Parser,
        ecmaVersion: 'latest',
        sourceType: isCommonJs(file, text) ? 'commonjs' : 'module',
        parserOptions: { ecmaFeatures: { jsx: /\.[jt]sx$/.test(file) } },
      },
      settings: { 'replica-guard': { service: 'svc' } },
    },
  ];
  return new Linter({ configType: 'flat', cwd: dirname(file) }).verify(text, config, { filename: file });
}

function corpusFiles(): string[] {
  return globSync(SOURCE, { cwd: scratch, absolute: true, ignore: ['**/node_modules/**', '**/eslint.config.js'] }).sort();
}

let first: CodemodReport;
let before: Map<string, string>;

beforeAll(async () => {
  for (const input of fixtureInputs) {
    const text = readFileSync(join(here, 'fixtures', input), 'utf8');
    const match = /^(.*)\.input\.(\w+)$/.exec(basename(input))!;
    const dir = join(scratch, 'fixtures', dirname(input), match[1]!);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: '@acme/svc', type: /\brequire\(/.test(text) && !/^import /m.test(text) ? 'commonjs' : 'module' }),
    );
    writeFileSync(join(dir, `${match[1]}.${match[2]}`), text);
  }
  // The corpus is one project: project steps (a scaffolded entrypoint) stay inside it.
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: '@acme/corpus', type: 'module' }));
  cpSync(join(root, 'examples'), join(scratch, 'examples'), { recursive: true, filter: (path) => !path.includes('node_modules') });
  before = new Map(corpusFiles().map((file) => [file, readFileSync(file, 'utf8')]));
  first = await runCodemod({ paths: ['.'], cwd: scratch, force: true });
}, 120_000);

test('the corpus holds every fixture input and the examples, and the run changes something', () => {
  expect(fixtureInputs.length).toBeGreaterThanOrEqual(transforms.length * 15);
  expect([...before.keys()].some((file) => file.includes(`${join('examples', '')}`))).toBe(true);
  expect(first.errors).toEqual([]);
  expect(first.filesChanged).toBeGreaterThan(0);
});

test.each(['atomic-counters', 'jetstream-msg-id'])('%s has at least 15 fixture pairs, some of them marked manual', (name) => {
  const own = fixtureInputs.filter((input) => input.startsWith(`${name}/`));
  expect(own.length).toBeGreaterThanOrEqual(15);
  const outputs = own.map((input) => readFileSync(join(here, 'fixtures', input.replace('.input.', '.output.')), 'utf8'));
  expect(outputs.filter((text) => text.includes('replica-guard: manual')).length).toBeGreaterThanOrEqual(3);
  expect(
    outputs.filter((text, i) => !text.includes('replica-guard: manual') && text !== readFileSync(join(here, 'fixtures', own[i]!), 'utf8'))
      .length,
  ).toBeGreaterThanOrEqual(10);
});

describe('after one run of every transform', () => {
  test('every file parses', () => {
    const fatal = corpusFiles().flatMap((file) =>
      lint(file, readFileSync(file, 'utf8'))
        .filter((m) => m.fatal)
        .map((m) => `${relative(scratch, file)}:${m.line}: ${m.message}`),
    );
    expect(fatal).toEqual([]);
  });

  test('no finding a transform claims to fix is left outside a manual marker', () => {
    const left = corpusFiles().flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n');
      return lint(file, text)
        .filter((m) => m.ruleId !== null && fixedRules.has(m.ruleId))
        .filter((m) => !/replica-guard: manual/.test(lines[m.line - 2] ?? ''))
        .map((m) => `${relative(scratch, file)}:${m.line}: ${m.ruleId}`);
    });
    expect(left).toEqual([]);
  });

  test('every marker the run wrote is reported as a manual follow-up at its line', () => {
    const unreported = corpusFiles().flatMap((file) => {
      const old = before.get(file) ?? '';
      const shown = relative(scratch, file);
      return readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/replica-guard: manual/.test(line) && !old.includes(line.trim()) ? [i + 1] : []))
        .filter((line) => !first.manual.some((m) => m.file === shown && (m.line === line || m.line === line + 1)))
        .map((line) => `${shown}:${line}`);
    });
    expect(unreported).toEqual([]);
  });

  test('a second run changes nothing', async () => {
    const snapshot = new Map(corpusFiles().map((file) => [file, readFileSync(file, 'utf8')]));
    const again = await runCodemod({ paths: ['.'], cwd: scratch, force: true });
    expect(again.errors).toEqual([]);
    expect(again.filesChanged).toBe(0);
    for (const [file, text] of snapshot) expect(readFileSync(file, 'utf8'), relative(scratch, file)).toBe(text);
  });
});
