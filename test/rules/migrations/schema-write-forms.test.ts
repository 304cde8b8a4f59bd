// The raw-text test `no-in-app-migrations` runs first (rules/migrations/schema-write-forms.ts): a
// file whose only schema write is written in an unusual form is still reported, and a file that
// only names the vocabulary (in comments, strings, declarations, `new`, its own identifiers) is
// skipped before any other work.
import { describe, expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';
import { mayWriteSchema } from '../../../rules/migrations/schema-write-forms.js';
import { mayRunPluginDdl } from '../../../rules/migrations/plugin-load-ddl.js';
import { DEFAULT_MIGRATION_FLAGS, SCHEMA_WRITE_FUNCTIONS } from '../../../src/knowledge/migrators.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });
const flag = (line: number, column: number) => ({ messageId: 'migrationFlag' as const, line, column });

ruleTester.run('no-in-app-migrations: the only schema write in an unusual form', rule, {
  valid: [],
  invalid: [
    // a comment between the runner and its arguments
    { code: lines("import { migrateDb } from './db';", 'await migrateDb /* every table */ ();'), errors: [call(2, 7)] },
    // a non-null assertion, an optional call, type arguments
    { code: lines("import { migrateDb } from './db';", 'await migrateDb!();'), errors: [call(2, 7)] },
    { code: lines("import { runMigrations } from './db';", 'await runMigrations?.();'), errors: [call(2, 7)] },
    { code: lines("import { migrateDb } from './db';", 'await migrateDb<void>();'), errors: [call(2, 7)] },
    // a parenthesised callee under a type assertion
    { code: lines("import { migrateDb } from './db';", 'await (migrateDb as () => Promise<void>)();'), errors: [call(2, 7)] },
    // a computed member, and the member on the next line
    { code: lines('export async function start(db: Db) {', "  await db['migrate']();", '}'), errors: [call(2, 9)] },
    { code: lines("import knex from 'knex';", 'const db = knex({});', 'await db.migrate', '  .latest();'), errors: [call(3, 7)] },
    // a migrator receiver under a type assertion
    {
      code: lines('export class Boot {', '  async start() {', '    await (this.migrator as Runner).up();', '  }', '}'),
      errors: [call(3, 11)],
    },
    // a quoted option key and a shorthand property
    {
      code: lines("import { DataSource } from 'typeorm';", "export const ds = new DataSource({ type: 'postgres', 'synchronize': true });"),
      errors: [option(2, 54)],
    },
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'const synchronize = process.env.NODE_ENV !== "production";',
        "export const ds = new DataSource({ type: 'postgres', synchronize });",
      ),
      errors: [option(3, 54)],
    },
    // the flag read through a computed member
    { code: "if (process.env['POSTGRES_RUN_MIGRATIONS'] === 'true') boot();", errors: [flag(1, 5)] },
  ],
});

/** The raw-text test on `code` as ESLint hands it over (text and the parser's tokens). */
function passes(code: string): boolean {
  const linter = new Linter({ configType: 'flat' });
  let result: boolean | undefined;
  linter.verify(code, {
    languageOptions: { parser: tsParser as never },
    plugins: {
      probe: {
        rules: {
          gate: {
            create(context) {
              result = mayWriteSchema(context.sourceCode as never, DEFAULT_MIGRATION_FLAGS);
              return {};
            },
          },
        },
      },
    },
    rules: { 'probe/gate': 'error' },
  });
  return result!;
}

describe('the raw-text test', () => {
  test.each([
    ['a runner called', 'await migrateDb();'],
    ['a set-up function asked about across files', 'await setupDatabase();'],
    ['a db-named call', 'initDb();'],
    ['a runner called across lines and comments', 'migrate // then\n  (db);'],
    ['a migrator receiver', 'await umzugRunner.up();'],
    ['Schema.Create()', 'Schema.Create();'],
    ['a branch of a conditional', 'const done = ready ? migrate(db) : undefined;'],
    ['an awaited branch of a conditional', 'const done = ready ? await migrate(db) : undefined;'],
    ["node-pg-migrate's runner under another name", "import run from 'node-pg-migrate';"],
    ["Drizzle's migrator under another name", "import { migrate as apply } from 'drizzle-orm/node-postgres/migrator';"],
    [
      "TypeORM's options built elsewhere",
      "import { DataSource } from 'typeorm';\nimport { options } from './options';\nnew DataSource(options);",
    ],
    ['the flag', 'const run = process.env.POSTGRES_RUN_MIGRATIONS;'],
  ])('passes %s', (_, code) => expect(passes(code)).toBe(true));

  test.each(SCHEMA_WRITE_FUNCTIONS.flatMap((fn) => (Array.isArray(fn.modules) ? fn.modules.map((module) => [module, fn.path[0]!]) : [])))(
    "passes every catalogued migrator module's function under another name (%s)",
    (module, exported) => expect(passes(`import { ${exported} as run } from '${module}';\nawait run(settings);`)).toBe(true),
  );

  test.each([
    ['the words in comments', '// migrate(db) and setupDatabase() run in cmd/migrate\nstart();'],
    ['the words in a string', "await pool.query('SELECT current_database(), current_schema()');"],
    ['declarations', 'export function migrate(db) {}\nclass A { async initDb(q) { return q; } }'],
    ['a declaration with a return type', 'class A {\n  migrate(db: Db): Promise<void>;\n}'],
    ['a constructed schema', 'const user = new Schema({ name: String });\nconst post = new mongoose.Schema({});'],
    ['a compiled callee in a sequence', 'const c = (0, db_1.getDatabase)();'],
    ['names that are not called', 'this.database.query(sql);\nconst schema = mongodb.schema;\nif (options.synchronize) go();'],
    ['Prisma without a process spawner', "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();"],
  ])('skips %s', (_, code) => expect(passes(code)).toBe(false));

  test('reads the tokens only for an occurrence that would count (a caller with the text alone parses only then)', () => {
    const textOnly = (text: string) => ({
      text,
      ast: {
        get tokens(): never {
          throw new Error('tokens read');
        },
      },
    });
    expect(mayWriteSchema(textOnly('this.schema.path(x);\nconst db = mongodb;'), DEFAULT_MIGRATION_FLAGS)).toBe(false);
    expect(() => mayWriteSchema(textOnly('await setupDatabase();'), DEFAULT_MIGRATION_FLAGS)).toThrow('tokens read');
  });

  // With `orPluginDdl`, the one scan also looks for `fastify`: its answer is `mayWriteSchema || mayRunPluginDdl`, wherever `fastify` stands.
  const DDL = "await app.store.query('CREATE TABLE IF NOT EXISTS notes (id int)');";
  test.each([
    ['a plugin module named in an import', `import fp from 'fastify-plugin';\n${DDL}`, true],
    ['`fastify` inside a name a stem begins (not scanned past the stem)', `const dbfastify = 1;\n${DDL}`, true],
    ['`fastify` after a stem in one name, with a separator', `const migrations_fastify = 1;\n${DDL}`, true],
    ['`fastify` in a comment', `// fastify\n${DDL}`, true],
    ['only `Fastify` (the DDL test is case-sensitive for it)', `import Fastify from 'Fastify';\n${DDL}`, false],
    ['`fastify` without DDL', "import fp from 'fastify-plugin';\nawait app.store.query('SELECT 1');", false],
    ['`fastify` without DDL, then a schema write', "import fp from 'fastify-plugin';\nawait migrateDb();", true],
  ])('with the plugin DDL, answers as the two tests together for %s', (_, code, expected) => {
    const sourceCode = { text: code, ast: {} };
    const together = mayWriteSchema(sourceCode, DEFAULT_MIGRATION_FLAGS) || mayRunPluginDdl(code);
    expect(together).toBe(expected);
    expect(mayWriteSchema(sourceCode, DEFAULT_MIGRATION_FLAGS, true)).toBe(expected);
  });

  test('a flag spelled `fastify` stays a flag', () => {
    const flags = [...DEFAULT_MIGRATION_FLAGS, 'FASTIFY'];
    expect(mayWriteSchema({ text: 'const on = process.env.FASTIFY;', ast: {} }, flags, true)).toBe(true);
    expect(mayWriteSchema({ text: 'const on = process.env.OTHER;', ast: {} }, flags, true)).toBe(false);
  });
});
