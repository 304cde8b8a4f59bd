import { expect, test } from 'vitest';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

/** Settings that name the file a migrate entrypoint (not found by its name alone): its URL is checked. */
const namedEntrypoint = (filename: string) => ({ 'replica-guard': { migrateEntrypoints: [filename] } });

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'src/cmd/migrate.ts';
const COMMONJS = { sourceType: 'commonjs' } as never;

// A good entrypoint on replica-guard's runner, and one written by hand.
const RUN = "import { runMigrations, knexMigrator } from 'replica-guard';";
const MANUAL = [
  "import { Client } from 'pg';",
  'async function main() {',
  '  const client = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
  '  await client.connect();',
  "  await client.query('select pg_advisory_lock($1)', [42]);",
  '  try {',
  '    await migrate(client);',
  '  } finally {',
  "    try { await client.query('select pg_advisory_unlock($1)', [42]); } catch {}",
  '    await client.end();',
  '  }',
  '}',
];
const HANDLED = 'main().catch((error) => {\n  console.error(error);\n  process.exit(1);\n});';
// A process-wide handler that logs and goes on: a rejection no longer ends the process with code 1.
const SWALLOW = "process.on('unhandledRejection', (error) => console.error(error));";
const suggestion = (output: string) => [{ messageId: 'handleRejection' as const, output }];

ruleTester.run('migrate-entrypoint', rule, {
  valid: [
    {
      code: lines(RUN, "await runMigrations({ lockKey: 'orders', migrate: knexMigrator({ migrations: { directory: 'migrations' } }) });"),
      filename: ENTRY,
    },
    { code: lines(RUN, "await runMigrations({ url: process.env.POSTGRES_MIGRATE_URL, lockKey: 'orders', migrate });"), filename: ENTRY },
    // a direct or unpooled URL, one kept for migrations, or a test database's: not the app's pooled URL
    {
      code: lines(
        RUN,
        'const url = process.env.NODE_ENV === "test" ? process.env.TEST_DATABASE_URL : process.env.DIRECT_DATABASE_URL;',
        "await runMigrations({ url, lockKey: 'orders', migrate });",
      ),
      filename: ENTRY,
    },
    {
      code: lines(RUN, "await runMigrations({ url: process.env.POSTGRES_URL_NON_POOLING, lockKey: 'orders', migrate });"),
      filename: ENTRY,
    },
    { code: lines(RUN, "await runMigrations({ url: process.env.DATABASE_URL_UNPOOLED, lockKey: 'orders', migrate });"), filename: ENTRY },
    { code: lines(RUN, "await runMigrations({ url: process.env.MIGRATION_DATABASE_URL, lockKey: 'orders', migrate });"), filename: ENTRY },
    { code: lines(...MANUAL, HANDLED), filename: ENTRY },
    { code: lines(...MANUAL, 'await main();'), filename: 'services/billing/cmd/migrate/index.ts' },
    { code: lines(...MANUAL, 'main().then(() => process.exit(0), (e) => { console.error(e); process.exitCode = 1; });'), filename: ENTRY },
    { code: lines(...MANUAL, 'try { await main(); } catch (error) { console.error(error); throw error; }'), filename: ENTRY },
    // Node ≥ 15 ends the process with code 1 on an unhandled rejection: a floating main() fails the run
    { code: lines(...MANUAL, 'main();'), filename: ENTRY },
    // …and so does a process-wide handler that rethrows or exits non-zero
    { code: lines(...MANUAL, 'main();', "process.on('unhandledRejection', (error) => { throw error; });"), filename: ENTRY },
    { code: lines(...MANUAL, 'void main();', "process.once('uncaughtException', () => process.exit(2));"), filename: ENTRY },
    // found by its name alone (no script or setting names it), a file may be any script run against the database it is
    // pointed at: the app's URL is only checked in the entrypoint the pods run
    { code: lines(RUN, "await runMigrations({ url: process.env.DATABASE_URL, lockKey: 'orders', migrate });"), filename: ENTRY },
    // not an entrypoint: the rule does not look
    { code: 'const pool = new Pool({ connectionString: process.env.DATABASE_URL });', filename: 'src/server.ts' },
    // other env variables are fine
    { code: lines(RUN, 'const level = process.env.LOG_LEVEL;', "await runMigrations({ lockKey: 'orders', migrate });"), filename: ENTRY },
    // a local Pool class is not pg's
    { code: lines(RUN, 'class Pool {}', 'new Pool();', "await runMigrations({ lockKey: 'x', migrate });"), filename: ENTRY },
    // a helper module next to the entrypoint only declares things: it is not the run
    {
      code: lines(
        "import type { Knex } from 'knex';",
        'export const migrations = ["001_init"];',
        'export function config(): Knex.Config { return { client: "pg" }; }',
      ),
      filename: 'src/cmd/migrate/config.ts',
    },
    // entrypoint globs from settings
    {
      code: 'const pool = new Pool();',
      filename: 'src/cmd/migrate.ts',
      settings: { 'replica-guard': { migrateEntrypoints: ['bin/migrate.ts'] } },
    },
  ],
  invalid: [
    // the URL
    {
      code: lines(RUN, "await runMigrations({ url: process.env.DATABASE_URL, lockKey: 'orders', migrate });"),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [{ messageId: 'appUrl', line: 2, column: 28 }],
    },
    {
      code: lines(RUN, 'const { DATABASE_URL } = process.env;', "await runMigrations({ url: DATABASE_URL, lockKey: 'orders', migrate });"),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [{ messageId: 'appUrl', line: 2, column: 9 }],
    },
    {
      code: lines(RUN, "const url = process.env['POSTGRES_URL'];", "await runMigrations({ url, lockKey: 'orders', migrate });"),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [{ messageId: 'appUrl', line: 2, column: 13 }],
    },
    // the near-identical app and pooled URLs are still reported
    {
      code: lines(
        RUN,
        'const url = process.env.NODE_ENV === "test" ? process.env.TEST_DATABASE_URL : process.env.APP_DATABASE_URL;',
        "await runMigrations({ url, lockKey: 'orders', migrate });",
      ),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [{ messageId: 'appUrl', line: 2, column: 79 }],
    },
    {
      code: lines(RUN, "await runMigrations({ url: process.env.POSTGRES_URL_POOLING, lockKey: 'orders', migrate });"),
      filename: ENTRY,
      errors: [{ messageId: 'poolerUrl', line: 2, column: 28 }],
    },
    // a pooler's URL is wrong for any migrate script, found by its name alone too
    {
      code: lines(RUN, "await runMigrations({ url: 'postgres://app@pgbouncer:6432/orders', lockKey: 'orders', migrate });"),
      filename: 'scripts/migrate.ts',
      errors: [{ messageId: 'poolerUrl', line: 2, column: 28 }],
    },
    {
      code: lines(RUN, 'const env = process.env;', "await runMigrations({ url: env.PGBOUNCER_URL, lockKey: 'orders', migrate });"),
      filename: ENTRY,
      errors: [{ messageId: 'poolerUrl', line: 3, column: 28 }],
    },
    {
      code: lines(
        RUN,
        "import { env } from 'node:process';",
        "await runMigrations({ url: env.DATABASE_POOL_URL, lockKey: 'orders', migrate });",
      ),
      filename: ENTRY,
      errors: [{ messageId: 'poolerUrl', line: 3, column: 28 }],
    },
    {
      code: lines(RUN, "await runMigrations({ url: 'postgres://app@orders-pgbouncer:6432/orders', lockKey: 'orders', migrate });"),
      filename: ENTRY,
      errors: [{ messageId: 'poolerUrl', line: 2, column: 28 }],
    },
    {
      code: lines(RUN, 'await runMigrations({ url: `postgresql://app@db.internal:6432/orders`, lockKey: "orders", migrate });'),
      filename: ENTRY,
      errors: [{ messageId: 'poolerUrl', line: 2, column: 28 }],
    },
    // the lock
    {
      code: lines(
        "import { Pool } from 'pg';",
        'const pool = new Pool({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
        "await pool.query('select pg_advisory_lock(42)');",
        'await migrate(pool);',
      ),
      filename: ENTRY,
      errors: [{ messageId: 'pool', line: 2, column: 14 }],
    },
    {
      code: lines("import pg from 'pg';", 'const pool = new pg.Pool();', "await pool.query('select pg_try_advisory_lock(1)');"),
      filename: ENTRY,
      errors: [{ messageId: 'pool', line: 2, column: 14 }],
    },
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'const db = new DataSource({ type: "postgres", url: process.env.POSTGRES_MIGRATE_URL });',
        'await db.runMigrations();',
        'await db.destroy();',
      ),
      filename: ENTRY,
      errors: [{ messageId: 'noLock', line: 3, column: 7 }],
    },
    {
      code: lines(
        "import { Client } from 'pg';",
        'const client = new Client(process.env.POSTGRES_MIGRATE_URL);',
        'await client.connect();',
        "await client.query('select pg_advisory_xact_lock(1)');",
        'await migrate(client);',
      ),
      filename: ENTRY,
      errors: [{ messageId: 'noLock', line: 5, column: 7 }],
    },
    // failures that do not exit non-zero
    {
      code: lines(
        RUN,
        'try {',
        "  await runMigrations({ lockKey: 'orders', migrate, exit: false });",
        '} catch (error) {',
        '  console.error(error);',
        '}',
      ),
      filename: ENTRY,
      errors: [{ messageId: 'swallowedFailure', line: 4, column: 3 }],
    },
    {
      code: lines(
        RUN,
        'try {',
        "  await runMigrations({ lockKey: 'orders', migrate, exit: false });",
        '} catch {',
        '  process.exit(0);',
        '}',
      ),
      filename: ENTRY,
      errors: [{ messageId: 'swallowedFailure', line: 4, column: 3 }],
    },
    {
      code: lines(...MANUAL, 'main().catch(console.error);'),
      filename: ENTRY,
      errors: [{ messageId: 'swallowedFailure', line: 13, column: 14 }],
    },
    {
      code: lines(...MANUAL, 'main().catch((e) => logger.error(e));'),
      filename: ENTRY,
      errors: [{ messageId: 'swallowedFailure', line: 13, column: 14 }],
    },
    {
      code: lines(...MANUAL, 'main().then(done, (e) => { console.error(e); process.exit(); });'),
      filename: ENTRY,
      errors: [{ messageId: 'swallowedFailure', line: 13, column: 19 }],
    },
    // a floating main()
    {
      code: lines(...MANUAL, 'main();', SWALLOW),
      filename: ENTRY,
      errors: [{ messageId: 'floatingMain', line: 13, column: 1, suggestions: suggestion(lines(...MANUAL, HANDLED, SWALLOW)) }],
    },
    {
      code: lines(...MANUAL, 'void main();', SWALLOW),
      filename: ENTRY,
      errors: [{ messageId: 'floatingMain', line: 13, column: 6, suggestions: suggestion(lines(...MANUAL, HANDLED, SWALLOW)) }],
    },
    {
      code: lines(...MANUAL, 'main().then(() => console.log("migrated"));', SWALLOW),
      filename: ENTRY,
      errors: [
        {
          messageId: 'floatingMain',
          line: 13,
          column: 1,
          suggestions: suggestion(lines(...MANUAL, 'main().then(() => console.log("migrated"))' + HANDLED.slice('main()'.length), SWALLOW)),
        },
      ],
    },
    {
      code: lines(RUN, '(async () => {', "  await runMigrations({ lockKey: 'orders', migrate });", '})();', SWALLOW),
      filename: ENTRY,
      errors: [
        {
          messageId: 'floatingMain',
          line: 2,
          column: 1,
          suggestions: suggestion(
            lines(
              RUN,
              '(async () => {',
              "  await runMigrations({ lockKey: 'orders', migrate });",
              '})()' + HANDLED.slice('main()'.length),
              SWALLOW,
            ),
          ),
        },
      ],
    },
    // several problems at once
    {
      code: lines(
        "import { Pool } from 'pg';",
        'const run = async () => {',
        '  const pool = new Pool({ connectionString: process.env.DATABASE_URL });',
        '  await migrate(pool);',
        '};',
        'run();',
        SWALLOW,
      ),
      filename: 'cmd/migrate.mts',
      settings: namedEntrypoint('cmd/migrate.mts'),
      errors: [
        { messageId: 'appUrl', line: 3, column: 45 },
        { messageId: 'noLock', line: 4, column: 9 },
        {
          messageId: 'floatingMain',
          line: 6,
          column: 1,
          suggestions: suggestion(
            lines(
              "import { Pool } from 'pg';",
              'const run = async () => {',
              '  const pool = new Pool({ connectionString: process.env.DATABASE_URL });',
              '  await migrate(pool);',
              '};',
              'run()' + HANDLED.slice('main()'.length),
              SWALLOW,
            ),
          ),
        },
      ],
    },
  ],
});

jsRuleTester.run('migrate-entrypoint (JavaScript)', rule, {
  valid: [
    {
      code: lines(
        "const { runMigrations, nodePgMigrateMigrator } = require('replica-guard');",
        "runMigrations({ lockKey: 'orders', migrate: nodePgMigrateMigrator({ dir: 'migrations' }) });",
      ),
      filename: 'cmd/migrate.js',
      languageOptions: COMMONJS,
    },
  ],
  invalid: [
    {
      code: lines(
        "const { Pool } = require('pg');",
        'const pool = new Pool({ connectionString: process.env.DATABASE_URL });',
        "const sql = require('fs').readFileSync(require('path').join(__dirname, 'migrations', '001_init.sql'), 'utf8');",
      ),
      filename: 'cmd/migrate.cjs',
      settings: namedEntrypoint('cmd/migrate.cjs'),
      languageOptions: COMMONJS,
      errors: [
        { messageId: 'noLock', line: 1, column: 1 },
        { messageId: 'appUrl', line: 2, column: 43 },
      ],
    },
    // a lock taken through a pool: the unlock and the migrations may run on other sessions
    {
      code: lines(
        "const { Pool } = require('pg');",
        'const pool = new Pool({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
        "pool.query('select pg_advisory_lock(1)').then(() => migrate(pool));",
      ),
      filename: 'cmd/migrate.cjs',
      languageOptions: COMMONJS,
      errors: [{ messageId: 'pool', line: 2, column: 14 }],
    },
    {
      code: lines(
        "const { runMigrations } = require('replica-guard');",
        'runMigrations({ lockKey: "x", migrate, exit: false }).catch(function (error) { console.error(error); });',
      ),
      filename: 'cmd/migrate.js',
      languageOptions: COMMONJS,
      errors: [{ messageId: 'swallowedFailure', line: 2, column: 61 }],
    },
  ],
});

test('rule meta names the three requirements', () => {
  expect(migrateEntrypoint.meta.docs?.description).toMatch(/POSTGRES_MIGRATE_URL/);
  expect(Object.keys(migrateEntrypoint.meta.messages)).toEqual(
    expect.arrayContaining(['appUrl', 'pool', 'noLock', 'swallowedFailure', 'floatingMain']),
  );
});
