// Calls and option keys found from the text and looked up in the tree (rules/migrations/called-names.ts):
// each finds what a listener on every call or property would, and nothing in comments, strings or
// names that are not called.
import { describe, expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { callsNamed, memberCallsNamed, propertiesKeyed } from '../../../rules/migrations/called-names.js';
import { CROSS_FILE_CANDIDATE } from '../../../src/knowledge/migration-runs.js';
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

/** What `read` returns for `code` as ESLint hands it over (text, tokens, tree). */
function withSourceCode<T>(code: string, read: (sourceCode: Readonly<TSESLint.SourceCode>) => T): T {
  let result: T | undefined;
  new Linter({ configType: 'flat' }).verify(code, {
    languageOptions: { parser: tsParser as never },
    plugins: {
      probe: {
        rules: {
          read: {
            create(context) {
              result = read(context.sourceCode as never);
              return {};
            },
          },
        },
      },
    },
    rules: { 'probe/read': 'error' },
  });
  return result!;
}

const at = (node: TSESTree.Node): string => `${node.loc.start.line}:${node.loc.start.column + 1}`;
const crossFileCalls = (code: string): string[] =>
  withSourceCode(code, (sourceCode) =>
    callsNamed(sourceCode, /migrat|database|schema|db/gi, (name) => CROSS_FILE_CANDIDATE.test(name)).map(at),
  );

describe('calls found by their names', () => {
  test.each([
    ['a plain call', 'initDb();', ['1:1']],
    ['an optional member call', 'db.initDb?.();', ['1:1']],
    ['a callee under a type assertion', 'await (initDb as () => Promise<void>)();', ['1:7']],
    ['a computed member', "db['initDb']();", ['1:1']],
    ['a computed member with a template', 'db[`initDb`]();', ['1:1']],
    ['a non-null callee', 'initDb!();', ['1:1']],
    ['type arguments', 'initDb<void>();', ['1:1']],
    ['a comment before the arguments', 'await setupDatabase /* all */ ();', ['1:7']],
    ['the member on the next line', 'await client\n  .setupDatabase();', ['1:7']],
    ['outer before inner', 'initDb(setupSchema());', ['1:1', '1:8']],
  ])('finds %s', (_, code, expected) => expect(crossFileCalls(code)).toEqual(expected));

  test.each([
    ['the name only in a comment', '// initDb() runs first\nstart();'],
    ['the name only in a string', "log('initDb() done');"],
    ['db in names that are not called', 'const mongodb = load();\nthis.db.query(sql);\nuse(db);'],
    ['a declaration', 'function initDb() {}\nclass A { setupDatabase() {} }'],
    ['a construction', 'const s = new Schema({});'],
  ])('skips %s', (_, code) => expect(crossFileCalls(code)).toEqual([]));

  test('member calls of a method name, not plain calls of it', () => {
    const code = 'up();\nawait umzug.up();\nawait knex.migrate\n  .latest();\nsetup();';
    expect(withSourceCode(code, (sourceCode) => memberCallsNamed(sourceCode, new Set(['up', 'latest'])).map(at))).toEqual(['2:7', '3:7']);
  });
});

describe('properties found by their keys', () => {
  const keyed = (code: string): string[] =>
    withSourceCode(code, (sourceCode) => propertiesKeyed(sourceCode, ['synchronize', 'migrationsRun']).map(at));

  test('every way to write the key, across lines too', () => {
    const code = [
      'const a = { synchronize\n  :\n  true };',
      "const b = { 'migrationsRun': run };",
      "const c = { ['synchronize']: sync };",
      'const d = { synchronize };',
    ].join('\n');
    expect(keyed(code)).toEqual(['1:13', '4:13', '5:13', '6:13']);
  });

  test('not a member read, a comment, a string, a class field or a longer name', () => {
    const code = [
      'if (options.synchronize) go();',
      '// synchronize: true',
      "const s = 'synchronize: true';",
      'class A { synchronize = true; }',
      'const e = { synchronizeAll: true };',
    ].join('\n');
    expect(keyed(code)).toEqual([]);
  });
});

const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
ruleTester.run('no-in-app-migrations: calls and keys found by their names', rule, {
  valid: [
    // the runner named only in a comment, a db that is not called
    { code: "import { Client } from 'pg';\n// migrateDb() runs in cmd/migrate\nconst db = new Client();\nawait db.connect();" },
  ],
  invalid: [
    {
      code: "import type { DataSourceOptions } from 'typeorm';\nexport const options: DataSourceOptions = {\n  type: 'postgres',\n  synchronize\n    : true,\n};",
      errors: [{ messageId: 'schemaWriteOption', line: 4, column: 3 }],
    },
    {
      code: "import { migrateDb } from './db';\nawait (migrateDb as () => Promise<void>)\n  ();",
      errors: [{ messageId: 'schemaWriteCall', line: 2, column: 7 }],
    },
    {
      code: "import knex from 'knex';\nconst db = knex({});\nawait db.migrate['latest']();",
      errors: [{ messageId: 'schemaWriteCall', line: 3, column: 7 }],
    },
  ],
});
