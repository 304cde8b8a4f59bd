// Scripts only named like a migrate entrypoint: a one-off copy of keys between two stores, a
// rename of rows in a migrations table, a backfill of data. They write no schema and are not run
// by every pod, so nothing is asked of them (lock, URL, failure handling). A file that visibly runs
// migrations — SQL files from a migrations folder, schema DDL, a migrator's CLI — still is.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

/** Settings that name the file a migrate entrypoint (not found by its name alone): its URL is checked. */
const namedEntrypoint = (filename: string) => ({ 'replica-guard': { migrateEntrypoints: [filename] } });

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];

ruleTester.run('migrate-entrypoint (scripts that migrate data, not schema)', rule, {
  valid: [
    // a tool for writing migrations by hand, named for it: `prisma migrate dev` on a developer's database
    {
      code: lines(
        "import { execSync } from 'node:child_process';",
        "execSync('npx prisma migrate dev --create-only', { stdio: 'inherit' });",
      ),
      filename: 'scripts/migrate-dev.ts',
    },
    {
      code: lines("import { execSync } from 'node:child_process';", "execSync('npx typeorm migration:revert -d dist/data-source.js');"),
      filename: 'scripts/migrate-revert.ts',
    },
    // copies every key of one key-value store into another
    {
      code: lines(
        "import { createStore } from '../src/storage';",
        'async function copyAll() {',
        '  const from = await createStore(process.env.OLD_STORE_URL);',
        '  const to = await createStore(process.env.DATABASE_URL);',
        '  for (const key of await from.keys()) await to.set(key, await from.get(key));',
        '}',
        'copyAll().catch((error) => console.error(error));',
      ),
      filename: 'bin/migrateStore.ts',
    },
    // renames rows of the migrator's own bookkeeping table (a table name, not a folder)
    {
      code: lines(
        "import knex from 'knex';",
        "const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });",
        'try {',
        "  await db('knex_migrations').update({ name: db.raw(\"replace(name, '.js', '.ts')\") });",
        '} catch (error) {',
        '  console.error(error);',
        '}',
      ),
      filename: 'scripts/migrate-names.ts',
    },
    // moves session keys to a new layout
    {
      code: lines(
        "import { Redis } from 'ioredis';",
        'const redis = new Redis(process.env.REDIS_URL);',
        "for (const key of await redis.keys('sess:*')) await redis.rename(key, key.replace('sess:', 'session:'));",
        "console.log('moved sessions');",
      ),
      filename: 'scripts/migrate-sessions.ts',
    },
    // a file named for migrations at the end of a path is a file, not a migrations folder
    {
      code: lines(
        "import { writeFileSync } from 'node:fs';",
        'const users = await loadUsers(process.env.DATABASE_URL);',
        "writeFileSync('reports/migration-report.json', JSON.stringify(users));",
      ),
      filename: 'scripts/migrate-report.ts',
    },
  ],
  invalid: [
    // runs the SQL files of a migrations folder on the app's URL, with no lock
    {
      code: lines(
        "import { readdirSync, readFileSync } from 'node:fs';",
        "import { join } from 'node:path';",
        "import { Client } from 'pg';",
        'const client = new Client({ connectionString: process.env.DATABASE_URL });',
        'await client.connect();',
        "const dir = join(import.meta.dirname, 'migrations');",
        "for (const file of readdirSync(dir).sort()) await client.query(readFileSync(join(dir, file), 'utf8'));",
        'await client.end();',
      ),
      filename: 'scripts/migrate.ts',
      settings: namedEntrypoint('scripts/migrate.ts'),
      errors: [
        { messageId: 'noLock', line: 1, column: 1 },
        { messageId: 'appUrl', line: 4, column: 47 },
      ],
    },
    // schema DDL written in the script itself
    {
      code: lines(
        "import { Client } from 'pg';",
        'const client = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
        'await client.connect();',
        "await client.query('CREATE TABLE IF NOT EXISTS jobs (id serial primary key)');",
        'await client.end();',
      ),
      filename: 'bin/migrate.ts',
      errors: [{ messageId: 'noLock', line: 4, column: 7 }],
    },
    // a migrator's CLI spawned with no lock of its own around it
    {
      code: lines("import { execSync } from 'node:child_process';", "execSync('npx typeorm migration:run -d dist/data-source.js');"),
      filename: 'scripts/migrate.ts',
      errors: [{ messageId: 'noLock', line: 1, column: 1 }],
    },
  ],
});
