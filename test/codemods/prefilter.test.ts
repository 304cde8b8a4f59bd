// The codemod parses a file only for the transforms whose words, text check and rule pre-check its
// text passes. The rule pre-check is the rule's own `detect`, run on a SourceCode that holds only
// the text: no listeners without asking for more means the rule cannot report in the file.
import { describe, expect, test } from 'vitest';
import { mayReport, textCandidates } from '../../codemods/engine/prefilter.js';
import { findTransforms, transforms } from '../../codemods/registry.js';
import { runCodemod } from '../../codemods/engine/engine.js';
import { runDetection } from '../../codemods/engine/run-detection.js';
import { mayCreateClient, redisClientCreations } from '../../codemods/engine/lease-client-wiring.js';
import { noInAppMigrations } from '../../rules/no-in-app-migrations.js';
import { createRule } from '../../rules/utils/create-rule.js';
import type { RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { globSync } from 'tinyglobby';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const run = { settings: {}, cwd: '/srv/app' };

/** A rule whose `detect` does what `body` does with the context. */
const ruleDoing = (body: (context: { sourceCode: { text: string; ast: unknown } }, report: () => void) => RuleListener) =>
  createRule<'m', [], undefined>({
    name: 'probe',
    meta: { type: 'problem', docs: { description: 'probe', recommended: false }, messages: { m: 'm' }, schema: [] },
    defaultOptions: [],
    detect: (context, report) => body(context as never, () => report({ messageId: 'm', node: context.sourceCode.ast, facts: undefined })),
  });

describe('the rule pre-check (mayReport)', () => {
  test('no listeners from a text test: the rule cannot report, the file is not parsed for it', () => {
    const rule = ruleDoing((context) => (context.sourceCode.text.includes('cron') ? { CallExpression() {} } : {}));
    expect(mayReport(rule, '/srv/app/a.ts', 'export const a = 1;\n', run)).toBe(false);
    expect(mayReport(rule, '/srv/app/a.ts', 'cron.schedule(x);\n', run)).toBe(true);
  });

  test('a rule that asks for the tree, its tokens or scopes gets the file parsed', () => {
    const readsBody = ruleDoing((context) => ((context.sourceCode.ast as { body: unknown[] }).body.length > 0 ? {} : {}));
    expect(mayReport(readsBody, '/srv/app/a.ts', 'export const a = 1;\n', run)).toBe(true);
    const readsTokens = ruleDoing((context) => ((context.sourceCode as unknown as { ast: { tokens: unknown[] } }).ast.tokens ? {} : {}));
    expect(mayReport(readsTokens, '/srv/app/a.ts', 'export const a = 1;\n', run)).toBe(true);
  });

  test('a rule that reports from `detect` itself gets the file parsed', () => {
    const reportsAtOnce = ruleDoing((_context, report) => {
      report();
      return {};
    });
    expect(mayReport(reportsAtOnce, '/srv/app/a.ts', 'export const a = 1;\n', run)).toBe(true);
  });

  test("no-in-app-migrations' own check is sharper than the transform's words", () => {
    const [extract] = findTransforms(['extract-migrations']);
    const spawnsLs = `import { spawn } from 'node:child_process';\n\nspawn('ls', ['-l']);\n`;
    const spawnsMigrate = `import { spawn } from 'node:child_process';\n\nspawn('npx', ['prisma', 'migrate', 'deploy']);\n`;
    // Both name a process spawner, one of the transform's words …
    expect(textCandidates(spawnsLs, [extract!])).toEqual([extract]);
    expect(textCandidates(spawnsMigrate, [extract!])).toEqual([extract]);
    // … the rule looks further: only a migrate command (or a database-named call) can be reported.
    expect(mayReport(noInAppMigrations, '/srv/app/src/server.ts', spawnsLs, run)).toBe(false);
    expect(mayReport(noInAppMigrations, '/srv/app/src/server.ts', spawnsMigrate, run)).toBe(true);
  });
});

describe('the text pass', () => {
  test('a byte-order mark does not hide a word at the start', () => {
    const [guard] = findTransforms(['guard-schedules']);
    expect(textCandidates('\uFEFFsetInterval(() => sweep(), 1000);\n', [guard!])).toEqual([guard]);
  });

  test('words are matched as written, the characters a regular expression gives a meaning to included', () => {
    const [extract] = findTransforms(['extract-migrations']);
    // `latest(` is a word of extract-migrations; `latest` without its parenthesis is not.
    expect(textCandidates('await knex.migrate.latest();\n', [extract!])).toEqual([extract]);
    expect(textCandidates('const latest = 1;\n', [extract!])).toEqual([]);
    const probe = { ...extract!, prefilter: ['$executeRaw', 'a.b'], mayMatch: undefined };
    expect(textCandidates('await prisma.$executeRaw`select 1`;\n', [probe])).toEqual([probe]);
    expect(textCandidates('await prisma.executeRaw;\n', [probe])).toEqual([]);
    expect(textCandidates('const axb = 1;\n', [probe])).toEqual([]);
  });

  test('files no transform could change are scanned, left alone and never looked up in the ESLint configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-codemod-prefilter-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'svc', type: 'module' }));
    // A configuration that ignores every file: a file looked up would be reported as skipped.
    writeFileSync(join(dir, 'eslint.config.js'), `export default [{ ignores: ['**/*.ts'] }];\n`);
    writeFileSync(join(dir, 'plain.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'jobs.ts'), 'setInterval(async () => {\n  await mailer.sendDigest();\n}, 60_000);\n');
    const report = await runCodemod({ cwd: dir, paths: ['.'], dryRun: true, force: true }).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );
    expect(report.filesScanned).toBe(3);
    expect(report.skipped).toEqual([{ file: 'jobs.ts', reason: 'ignored by the ESLint configuration (lint never reports it)' }]);
    expect(report.changes).toEqual([]);
  });
});

describe('the setLeaseClient wiring parses only files that can create a Redis client', () => {
  const creations = (text: string): number =>
    runDetection('/srv/app/src/cache.ts', text, [{ rule: redisClientCreations }], { packageType: 'module' }).findings.get(
      redisClientCreations.name,
    )?.length ?? 0;
  const creating = [
    `import Redis from 'ioredis';\nexport const cache = new Redis();\n`,
    `import { Cluster as Ring } from 'iovalkey';\nconst ring = new Ring([]);\n`,
    `const Valkey = require('ioredis');\nmodule.exports = new Valkey(6379);\n`,
    `import { createClient as connect } from 'redis';\nexport const store = connect({ url });\n`,
    `import * as nodeRedis from '@redis/client';\nexport const store = nodeRedis.createCluster({ rootNodes });\n`,
    `import { create\\u0043lient } from 'redis';\nexport const store = create\\u0043lient();\n`,
  ];
  const notCreating = [
    // Types and a client handed in: the module is named, no factory is reached.
    `import type { Redis } from 'ioredis';\nexport function counterStore(client: Redis) {\n  return { bump: (k: string) => client.incr(k) };\n}\n`,
    `import { defineScript } from '@redis/client';\nexport const script = defineScript({ SCRIPT: 'return 1' });\n`,
    // A factory's name without its module, and the module in a comment's words only.
    `export const store = createClient();\n`,
  ];

  test.each(creating)('a creation is admitted and found: %s', (text) => {
    expect(mayCreateClient(text)).toBe(true);
    expect(creations(text)).toBeGreaterThan(0);
  });

  test.each(notCreating)('a file that creates none is not parsed, and the detection agrees: %s', (text) => {
    expect(mayCreateClient(text)).toBe(false);
    expect(creations(text)).toBe(0);
  });
});

// Every file whose code a transform's rule reports must pass that transform's words and text check,
// or the codemod never parses it and the finding is left with neither an edit nor a manual marker.
// Checked over every fixture input, the unseen trees and the rules' fixture projects.
describe('the text checks admit every file the rule reports', () => {
  const testRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  const files = globSync(
    ['codemods/fixtures/*/*.input.*', 'codemods/unseen/**/*.{ts,mts,cts,js,mjs,cjs}', 'rules/projects/**/*.{ts,mts,cts,js,mjs,cjs}'],
    {
      cwd: testRoot,
      absolute: true,
      ignore: ['**/node_modules/**'],
    },
  ).sort();
  const linter = new Linter({ configType: 'flat', cwd: '/srv/app' });
  const rules = Object.fromEntries(transforms.map((t) => [t.rule.name, t.rule]));

  test('the trees hold files for every transform', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  test.each(transforms.map((t) => [t.name, t] as const))('%s', (_name, transform) => {
    const missed: string[] = [];
    let reported = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const messages = linter.verify(
        text,
        [
          {
            files: ['**/*.{ts,mts,cts,js,mjs,cjs,jsx,tsx}'],
            languageOptions: {
              parser: tsParser as never,
              sourceType: /\.c[jt]s$/.test(file) ? 'commonjs' : 'module',
              parserOptions: { ecmaFeatures: { jsx: !/\.(ts|mts|cts)$/.test(file) } },
            },
            plugins: { probe: { rules: rules as never } },
            rules: { [`probe/${transform.rule.name}`]: 'error' },
          },
        ],
        // Outside test/: the rules skip test code.
        `/srv/app/src/${basename(file).replace('.input.', '.')}`,
      );
      if (!messages.some((m) => m.ruleId === `probe/${transform.rule.name}`)) continue;
      reported++;
      if (!textCandidates(text, [transform]).includes(transform)) missed.push(file.slice(testRoot.length + 1));
    }
    expect(reported).toBeGreaterThan(0);
    expect(missed).toEqual([]);
  });
});
