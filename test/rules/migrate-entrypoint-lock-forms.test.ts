// Migrate entrypoints the URL and lock findings must read right: a SQLite (or libSQL) database,
// whose "URL" is a file with no PgBouncer in front of it; a transaction-level advisory lock held
// by the transaction that runs the migrations; and a privileged role's URL the app never uses.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

/** Settings that name the file a migrate entrypoint (not found by its name alone): its URL is checked. */
const namedEntrypoint = (filename: string) => ({ 'replica-guard': { migrateEntrypoints: [filename] } });

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'src/db/migrate.ts';
const EXIT = 'run().catch((error) => {\n  console.error(error);\n  process.exit(1);\n});';

/** A hand-written runner on a client from the app's pool module; `body` runs inside `run()`. */
const pooled = (...body: string[]) =>
  lines(
    "import { readdir, readFile } from 'node:fs/promises';",
    "import { pool } from './pool';",
    'async function run() {',
    '  const conn = await pool.connect();',
    '  try {',
    ...body.map((statement) => `    ${statement}`),
    '  } finally {',
    '    conn.release();',
    '  }',
    '}',
    EXIT,
  );
const APPLY = [
  "for (const file of (await readdir('db/migrations')).sort()) await conn.query(await readFile(`db/migrations/${file}`, 'utf8'));",
];

ruleTester.run('migrate-entrypoint: SQLite files, transaction locks, privileged URLs', rule, {
  valid: [
    // better-sqlite3 opened on the URL variable: a file on this host
    {
      code: lines(
        "import Database from 'better-sqlite3';",
        "import { drizzle } from 'drizzle-orm/better-sqlite3';",
        "import { migrate } from 'drizzle-orm/better-sqlite3/migrator';",
        'const db = drizzle(new Database(process.env.DATABASE_URL ?? "data/app.db"));',
        "migrate(db, { migrationsFolder: 'drizzle' });",
      ),
      filename: ENTRY,
    },
    // …through a const: a SQLite cache beside the PostgreSQL run, which connects with the migrate URL
    {
      code: lines(
        "import Database from 'better-sqlite3';",
        "import { Client } from 'pg';",
        'const cacheFile = process.env.CACHE_DATABASE_URL!;',
        'const cache = new Database(cacheFile);',
        'const client = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
        'await client.connect();',
        "await client.query('SELECT pg_advisory_lock(4120)');",
        "await client.query('CREATE INDEX IF NOT EXISTS orders_day ON orders (day)');",
        "cache.exec('DELETE FROM kv');",
        'await client.end();',
      ),
      filename: ENTRY,
    },
    // libSQL (Turso) through Drizzle's libSQL migrator: not PostgreSQL
    {
      code: lines(
        "import { createClient } from '@libsql/client';",
        "import { drizzle } from 'drizzle-orm/libsql';",
        "import { migrate } from 'drizzle-orm/libsql/migrator';",
        'const client = createClient({ url: process.env.DATABASE_URL!, authToken: process.env.DATABASE_TOKEN });',
        "await migrate(drizzle(client), { migrationsFolder: './drizzle' });",
      ),
      filename: ENTRY,
    },
    // pg_advisory_xact_lock between BEGIN and COMMIT on the pinned client that applies the files
    {
      code: pooled(
        "await conn.query('BEGIN');",
        "await conn.query('SELECT pg_advisory_xact_lock($1)', [4120]);",
        ...APPLY,
        "await conn.query('COMMIT');",
      ),
      filename: ENTRY,
    },
    // …in postgres.js's transaction callback
    {
      code: lines(
        "import postgres from 'postgres';",
        'const sql = postgres(process.env.POSTGRES_MIGRATE_URL!, { max: 1 });',
        'async function run() {',
        '  await sql.begin(async (tx) => {',
        '    await tx`select pg_try_advisory_xact_lock(${4120})`;',
        "    await tx.unsafe('ALTER TABLE accounts ADD COLUMN IF NOT EXISTS plan text');",
        '  });',
        '  await sql.end();',
        '}',
        EXIT,
      ),
      filename: ENTRY,
    },
    // a superuser's or administrator's URL: the app never connects as that role
    {
      code: lines(
        "import { Client } from 'pg';",
        'const client = new Client({ connectionString: process.env.ADMIN_DATABASE_URL });',
        'await client.connect();',
        "await client.query('SELECT pg_advisory_lock(4120)');",
        "await client.query('CREATE EXTENSION IF NOT EXISTS pgcrypto');",
        'await client.end();',
      ),
      filename: ENTRY,
    },
    {
      code: lines(
        "import { Client } from 'pg';",
        'const client = new Client(process.env.ROOT_DATABASE_URL);',
        'await client.connect();',
        "await client.query('SELECT pg_advisory_lock(4120)');",
        "await client.query('CREATE SCHEMA IF NOT EXISTS app');",
        'await client.end();',
      ),
      filename: ENTRY,
    },
  ],
  invalid: [
    // a project module's `Database`: nothing says it is SQLite
    {
      code: lines(
        "import { Database } from './database';",
        'const db = new Database(process.env.DATABASE_URL!);',
        "await db.exec('CREATE TABLE IF NOT EXISTS notes (id serial PRIMARY KEY)');",
      ),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [
        { messageId: 'appUrl', line: 2, column: 25 },
        { messageId: 'noLock', line: 3, column: 7 },
      ],
    },
    // the same URL const handed to SQLite and to a PostgreSQL client
    {
      code: lines(
        "import Database from 'better-sqlite3';",
        "import { Client } from 'pg';",
        'const url = process.env.DATABASE_URL!;',
        'const cache = new Database(url);',
        'const client = new Client({ connectionString: url });',
        'await client.connect();',
        "await client.query('SELECT pg_advisory_lock(4120)');",
        "await client.query('CREATE INDEX IF NOT EXISTS orders_day ON orders (day)');",
        "cache.exec('DELETE FROM kv');",
      ),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [{ messageId: 'appUrl', line: 3, column: 13 }],
    },
    // the transaction lock in autocommit: released when its own statement ends
    {
      code: pooled("await conn.query('SELECT pg_advisory_xact_lock($1)', [4120]);", ...APPLY),
      filename: ENTRY,
      // on the loop's step that applies each migration file
      errors: [{ messageId: 'noLock', line: 7, column: 71 }],
    },
    // BEGIN sent on another client than the lock
    {
      code: pooled(
        "await pool.query('BEGIN');",
        "await conn.query('SELECT pg_advisory_xact_lock($1)', [4120]);",
        ...APPLY,
        "await pool.query('COMMIT');",
      ),
      filename: ENTRY,
      errors: [{ messageId: 'noLock', line: 8, column: 71 }],
    },
    // an administrator's URL is not a pooler's: ADMIN_POOL_URL still is one
    {
      code: lines(
        "import { Client } from 'pg';",
        'const client = new Client({ connectionString: process.env.ADMIN_POOL_URL });',
        'await client.connect();',
        "await client.query('SELECT pg_advisory_lock(4120)');",
        "await client.query('CREATE SCHEMA IF NOT EXISTS app');",
        'await client.end();',
      ),
      filename: ENTRY,
      errors: [{ messageId: 'poolerUrl', line: 2, column: 47 }],
    },
  ],
});
