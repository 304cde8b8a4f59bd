import { expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import {
  noSessionAdvisoryLock,
  type NoSessionAdvisoryLockFacts,
  type NoSessionAdvisoryLockMessageIds,
} from '../../rules/no-session-advisory-lock.js';
import type { Finding } from '../../rules/utils/create-rule.js';

const lines = (...l: string[]) => l.join('\n');

// @typescript-eslint/rule-tester carries its own copy of @typescript-eslint/utils; the rule is the same object.
const rule = noSessionAdvisoryLock as unknown as Parameters<typeof ruleTester.run<NoSessionAdvisoryLockMessageIds, readonly unknown[]>>[1];

/** Exact location of the `nth` SQL call `name(` in `code` (the squiggle covers the name). */
function at(code: string, name: string, nth = 0): { line: number; column: number; endLine: number; endColumn: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = code.indexOf(`${name}(`, index + 1);
    // Skip longer names that contain this one (`pg_advisory_lock_shared(` for `pg_advisory_lock(`).
    while (index > 0 && /\w/.test(code[index - 1] ?? '')) index = code.indexOf(`${name}(`, index + 1);
  }
  if (index === -1) throw new Error(`${name}( not in test code`);
  const before = code.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return { line, column, endLine: line, endColumn: column + name.length };
}

type Kind = NoSessionAdvisoryLockMessageIds;
const lock = (code: string, name: string, nth = 0) => ({ messageId: 'sessionLock' as Kind, ...at(code, name, nth) });
const unlock = (code: string, name: string, nth = 0) => ({ messageId: 'sessionUnlock' as Kind, ...at(code, name, nth) });
/** A lock inside a transaction: reported, with the suggestion to use the xact form. */
const inTx = (code: string, name: string, xact: string) => ({
  ...lock(code, name),
  suggestions: [{ messageId: 'useXactLock' as Kind, data: { xact }, output: code.replace(`${name}(`, `${xact}(`) }],
});

function invalid(code: string, errors: (code: string) => ReturnType<typeof lock>[], extra: Record<string, unknown> = {}) {
  return { code, errors: errors(code), ...extra };
}

const PG = "import { Pool } from 'pg';\nconst pool = new Pool();";
const PRISMA = "import { PrismaClient, Prisma } from '@prisma/client';\nconst prisma = new PrismaClient();";
const POSTGRES = "import postgres from 'postgres';\nconst sql = postgres(process.env.DATABASE_URL);";

const txPg = lines(
  'async function closePeriod(client) {',
  "  await client.query('BEGIN');",
  '  try {',
  "    await client.query('SELECT pg_advisory_lock($1)', [42]);",
  "    await client.query('UPDATE periods SET closed = true');",
  "    await client.query('COMMIT');",
  '  } catch (error) {',
  "    await client.query('ROLLBACK');",
  '    throw error;',
  '  }',
  '}',
);

ruleTester.run('no-session-advisory-lock', rule, {
  valid: [
    // the transaction-level forms are safe through a transaction pooler
    lines(PG, "await pool.query('SELECT pg_advisory_xact_lock($1)', [1]);"),
    lines(PG, "await pool.query('SELECT pg_try_advisory_xact_lock($1)', [1]);"),
    lines(PG, "await pool.query('SELECT pg_advisory_xact_lock_shared(1)');"),
    lines(PG, "await pool.query('SELECT pg_try_advisory_xact_lock_shared(1, 2)');"),
    lines(PRISMA, 'await prisma.$queryRaw`SELECT pg_try_advisory_xact_lock(${id})`;'),
    lines(POSTGRES, 'await sql.begin((tx) => tx`select pg_advisory_xact_lock(${key})`);'),
    // comments, strings, dollar quotes and quoted names inside the SQL never count
    lines(PG, "await pool.query('SELECT 1 -- pg_advisory_lock(1)');"),
    lines(PG, "await pool.query('SELECT /* pg_try_advisory_lock(1) */ 1');"),
    lines(PG, "await pool.query('SELECT /* nested /* */ pg_advisory_lock(1) */ 1');"),
    lines(PG, 'await pool.query("SELECT \'pg_advisory_lock(1)\' AS hint");'),
    lines(PG, "await pool.query(\"SELECT E'it\\\\'s pg_advisory_unlock(1)'\");"),
    lines(PG, "await pool.query('SELECT $$pg_advisory_lock(1)$$, $fn$pg_advisory_unlock_all()$fn$');"),
    lines(PG, 'await pool.query(`SELECT "pg_advisory_lock" FROM lock_audit`);'),
    lines(PG, "await pool.query('SELECT pg_advisory_lock FROM lock_audit');"),
    lines(PG, "await pool.query('SELECT my_pg_advisory_lock(1)');"),
    // text that is not SQL
    "logger.info('pg_advisory_lock(1) acquired for backups');",
    "throw new Error('could not pg_try_advisory_lock(42)');",
    "const doc = 'call pg_advisory_unlock when done';",
    // unparsable SQL is skipped silently
    lines(PG, 'await pool.query("SELECT \'unterminated pg_advisory_lock(1)");'),
    lines(PG, "await pool.query('SELECT pg_advisory_lock(1) /* never closed');"),
    // the migrate entrypoint holds the lock on one pinned, direct connection on purpose
    { code: lines(PG, "await pool.query('SELECT pg_advisory_lock($1)', [1]);"), filename: 'services/billing/cmd/migrate.ts' },
    { code: lines(PG, "await pool.query('SELECT pg_advisory_unlock($1)', [1]);"), filename: 'cmd/migrate/index.ts' },
    // named like the entrypoint and starting its run at the top level: the entrypoint
    {
      code: lines(
        "import { Client } from 'pg';",
        'const client = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
        'await client.connect();',
        "await client.query('SELECT pg_advisory_lock(42)');",
        'await runAll(client);',
        'async function runAll(c) {}',
      ),
      filename: 'src/internal/database/migrate.ts',
    },
    {
      code: lines(PG, "await pool.query('SELECT pg_advisory_lock($1)', [1]);"),
      filename: 'scripts/run-migrations.ts',
      settings: { 'replica-guard': { migrateEntrypoints: ['scripts/run-migrations.ts'] } },
    },
    // test code runs in no replica: a test that holds the lock to play a second instance
    { code: lines(PG, "await pool.query('SELECT pg_advisory_lock($1)', [1]);"), filename: 'packages/jobs/tests/refresher.ts' },
    { code: lines(PG, "await pool.query('SELECT pg_advisory_unlock($1)', [1]);"), filename: 'src/jobs/refresher.test.ts' },
    { code: 'await conn`select pg_try_advisory_lock(${key})`;', filename: 'src/__tests__/lock-contention.ts' },
    // a tag the catalogue does not know: the transaction-level form, and text that is not SQL
    'export const hold = (conn, key) => conn`select pg_advisory_xact_lock(${key})`;',
    'export const doc = (key) => html`<code>pg_advisory_lock(${key})</code> advisory`;',
    // no SQL at all, and odd shapes that must not crash the rule
    'const lock = acquireLock("advisory");',
    'await pool.query(); await pool.query(...args); await sql``; const t = String.raw`\\unicode advisory`;',
    "await pool[method]('SELECT 1'); await (0, pool.query)(`${a}${b}`); new Pool().query({ text }); // advisory",
    'await sql`${fragment}`; await pool.query(`SELECT ${x} advisory`);',
  ],
  invalid: [
    // raw pg
    invalid(
      lines(
        PG,
        'export async function backup(key: number) {',
        "  const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS ok', [key]);",
        '}',
      ),
      (c) => [lock(c, 'pg_try_advisory_lock')],
    ),
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_lock(42)');"), (c) => [lock(c, 'pg_advisory_lock')]),
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_unlock(42)');"), (c) => [unlock(c, 'pg_advisory_unlock')]),
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_unlock_all()');"), (c) => [unlock(c, 'pg_advisory_unlock_all')]),
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_lock_shared(1)');"), (c) => [lock(c, 'pg_advisory_lock_shared')]),
    invalid(lines(PG, "await pool.query('SELECT pg_try_advisory_lock_shared(1, 2)');"), (c) => [lock(c, 'pg_try_advisory_lock_shared')]),
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_unlock_shared(1)');"), (c) => [unlock(c, 'pg_advisory_unlock_shared')]),
    invalid(lines(PG, "await pool.query('select PG_ADVISORY_LOCK(1)');"), (c) => [lock(c, 'PG_ADVISORY_LOCK')]),
    invalid(lines(PG, "await pool.query('SELECT pg_catalog.pg_advisory_lock(1)');"), (c) => [lock(c, 'pg_advisory_lock')]),
    // a lock and its unlock in one string, and in two calls
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_lock(1); SELECT pg_advisory_unlock(1)');"), (c) => [
      lock(c, 'pg_advisory_lock'),
      unlock(c, 'pg_advisory_unlock'),
    ]),
    invalid(
      lines(
        PG,
        'async function purge() {',
        "  await pool.query('SELECT pg_try_advisory_lock(7)');",
        '  await doPurge();',
        "  await pool.query('SELECT pg_advisory_unlock(7)');",
        '}',
      ),
      (c) => [lock(c, 'pg_try_advisory_lock'), unlock(c, 'pg_advisory_unlock')],
    ),
    // a comment or string before the call does not hide it, and the location survives them
    invalid(lines(PG, "await pool.query('SELECT /* lock */ \\'a\\', pg_advisory_lock(1)');"), (c) => [lock(c, 'pg_advisory_lock')]),
    invalid(lines(PG, 'await pool.query("SELECT \'pg_advisory_lock(0)\' AS label, pg_try_advisory_lock(1)");'), (c) => [
      lock(c, 'pg_try_advisory_lock'),
    ]),
    // template literals (placeholders are parameters), multi-line
    invalid(lines(PG, 'await pool.query(`SELECT pg_try_advisory_lock(${lockKey})`);'), (c) => [lock(c, 'pg_try_advisory_lock')]),
    invalid(lines(PG, 'await pool.query(`', '  SELECT ${a} AS a,', '         pg_advisory_lock(${b})', '`);'), (c) => [
      lock(c, 'pg_advisory_lock'),
    ]),
    // query config objects and constants passed by name
    invalid(lines(PG, "await pool.query({ text: 'SELECT pg_advisory_lock($1)', values: [1] });"), (c) => [lock(c, 'pg_advisory_lock')]),
    invalid(lines(PG, "const LOCK_SQL = 'SELECT pg_try_advisory_lock($1)';", 'await pool.query(LOCK_SQL, [1]);'), (c) => [
      lock(c, 'pg_try_advisory_lock'),
    ]),
    invalid(
      lines(PG, 'async function job() {', '  await pool.query(UNLOCK, [1]);', '}', "const UNLOCK = 'SELECT pg_advisory_unlock($1)';"),
      (c) => [unlock(c, 'pg_advisory_unlock')],
    ),
    invalid(lines(PG, "const LOCK = 'SELECT ' + 'pg_advisory_lock($1)';", 'await pool.query(LOCK, [1]);'), (c) => [
      lock(c, 'pg_advisory_lock'),
    ]),
    invalid(lines(PG, "const Q = { text: 'SELECT pg_advisory_lock(1)' } as const;", 'await pool.query(Q);'), (c) => [
      lock(c, 'pg_advisory_lock'),
    ]),
    // SQL text sent by a wrapper the rule does not know is still SQL
    invalid(lines("const sql = 'SELECT pg_try_advisory_lock(99) AS locked';", 'await runSql(sql);'), (c) => [
      lock(c, 'pg_try_advisory_lock'),
    ]),
    // knex
    invalid(
      lines("import knex from 'knex';", 'const db = knex(config);', "await db.raw('select pg_try_advisory_lock(?)', [key]);"),
      (c) => [lock(c, 'pg_try_advisory_lock')],
    ),
    // Prisma
    invalid(lines(PRISMA, 'await prisma.$queryRaw`SELECT pg_try_advisory_lock(${id})`;'), (c) => [lock(c, 'pg_try_advisory_lock')]),
    invalid(lines(PRISMA, 'await prisma.$executeRaw`SELECT pg_advisory_unlock(${id})`;'), (c) => [unlock(c, 'pg_advisory_unlock')]),
    invalid(lines(PRISMA, "await prisma.$queryRawUnsafe('SELECT pg_advisory_lock($1)', id);"), (c) => [lock(c, 'pg_advisory_lock')]),
    invalid(lines(PRISMA, "await prisma.$executeRawUnsafe('SELECT pg_advisory_unlock_all()');"), (c) => [
      unlock(c, 'pg_advisory_unlock_all'),
    ]),
    invalid(lines(PRISMA, 'await prisma.$queryRaw(Prisma.sql`SELECT pg_advisory_lock(${key})`);'), (c) => [lock(c, 'pg_advisory_lock')]),
    // postgres.js
    invalid(lines(POSTGRES, 'const [{ locked }] = await sql`select pg_try_advisory_lock(${key}) as locked`;'), (c) => [
      lock(c, 'pg_try_advisory_lock'),
    ]),
    invalid(lines("import postgres from 'postgres';", 'const db = postgres();', 'await db`select pg_advisory_unlock(${key})`;'), (c) => [
      unlock(c, 'pg_advisory_unlock'),
    ]),
    invalid(lines(POSTGRES, "await sql.unsafe('select pg_advisory_lock(1)');"), (c) => [lock(c, 'pg_advisory_lock')]),
    // TypeORM
    invalid(
      lines(
        "import { DataSource } from 'typeorm';",
        'const ds = new DataSource(options);',
        "await ds.query('SELECT pg_try_advisory_lock($1)', [1]);",
      ),
      (c) => [lock(c, 'pg_try_advisory_lock')],
    ),
    invalid(
      lines('class Job {', '  async run() {', "    await this.dataSource.manager.query('SELECT pg_advisory_lock(5)');", '  }', '}'),
      (c) => [lock(c, 'pg_advisory_lock')],
    ),
    // Drizzle and Kysely `sql` templates
    invalid(lines("import { sql } from 'drizzle-orm';", 'await db.execute(sql`select pg_try_advisory_lock(${key})`);'), (c) => [
      lock(c, 'pg_try_advisory_lock'),
    ]),
    invalid(lines("import { sql } from 'kysely';", 'await sql`select pg_advisory_lock(${key})`.execute(db);'), (c) => [
      lock(c, 'pg_advisory_lock'),
    ]),
    // between BEGIN and COMMIT on the same client in the same function: suggest the xact form
    invalid(txPg, (c) => [inTx(c, 'pg_advisory_lock', 'pg_advisory_xact_lock')]),
    invalid(
      lines(
        'async function sweep(client) {',
        "  await client.query('BEGIN');",
        "  const { rows } = await client.query('SELECT pg_try_advisory_lock(1) AS ok');",
        "  await client.query('COMMIT');",
        '}',
      ),
      (c) => [inTx(c, 'pg_try_advisory_lock', 'pg_try_advisory_xact_lock')],
    ),
    invalid(
      lines(
        'async function read(client) {',
        "  await client.query('START TRANSACTION');",
        "  await client.query('SELECT pg_advisory_lock_shared(1)');",
        "  await client.query('END');",
        '}',
      ),
      (c) => [inTx(c, 'pg_advisory_lock_shared', 'pg_advisory_xact_lock_shared')],
    ),
    invalid(
      lines(
        'async function close(qr) {',
        '  await qr.startTransaction();',
        "  await qr.query('SELECT pg_advisory_lock(3)');",
        '  await qr.commitTransaction();',
        '}',
      ),
      (c) => [inTx(c, 'pg_advisory_lock', 'pg_advisory_xact_lock')],
    ),
    invalid(lines(POSTGRES, 'await sql.begin(async (sql) => {', '  await sql`select pg_advisory_lock(${key})`;', '});'), (c) => [
      inTx(c, 'pg_advisory_lock', 'pg_advisory_xact_lock'),
    ]),
    invalid(lines('await knex.transaction(async (trx) => {', "  await trx.raw('select pg_try_advisory_lock(?)', [key]);", '});'), (c) => [
      inTx(c, 'pg_try_advisory_lock', 'pg_try_advisory_xact_lock'),
    ]),
    invalid(
      lines(PRISMA, 'await prisma.$transaction(async (tx) => {', '  await tx.$executeRaw`SELECT pg_advisory_lock(${key})`;', '});'),
      (c) => [inTx(c, 'pg_advisory_lock', 'pg_advisory_xact_lock')],
    ),
    invalid(
      lines('await dataSource.transaction(async (manager) => {', "  await manager.query('SELECT pg_advisory_lock_shared(9)');", '});'),
      (c) => [inTx(c, 'pg_advisory_lock_shared', 'pg_advisory_xact_lock_shared')],
    ),
    // … but not an unlock (COMMIT releases xact locks; the codemod removes the unlock)
    invalid(
      lines(
        'async function f(client) {',
        "  await client.query('BEGIN');",
        "  await client.query('SELECT pg_advisory_unlock(1)');",
        "  await client.query('COMMIT');",
        '}',
      ),
      (c) => [unlock(c, 'pg_advisory_unlock')],
    ),
    // no suggestion: BEGIN on another client, no COMMIT after, BEGIN in another function, escaped name
    invalid(
      lines(
        'async function f(a, b) {',
        "  await a.query('BEGIN');",
        "  await b.query('SELECT pg_advisory_lock(1)');",
        "  await a.query('COMMIT');",
        '}',
      ),
      (c) => [lock(c, 'pg_advisory_lock')],
    ),
    invalid(
      lines(
        'async function f(client) {',
        "  await client.query('SELECT pg_advisory_lock(1)');",
        "  await client.query('BEGIN');",
        "  await client.query('COMMIT');",
        '}',
      ),
      (c) => [lock(c, 'pg_advisory_lock')],
    ),
    invalid(
      lines(
        'async function begin(client) {',
        "  await client.query('BEGIN');",
        '}',
        'async function work(client) {',
        "  await client.query('SELECT pg_advisory_lock(1)');",
        "  await client.query('COMMIT');",
        '}',
      ),
      (c) => [lock(c, 'pg_advisory_lock')],
    ),
    // a file that is not the migrate entrypoint, with custom entrypoint settings
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_lock(1)');"), (c) => [lock(c, 'pg_advisory_lock')], {
      filename: 'src/jobs/backup.ts',
      settings: { 'replica-guard': { migrateEntrypoints: ['scripts/migrate.ts'] } },
    }),
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_lock(1)');"), (c) => [lock(c, 'pg_advisory_lock')], {
      filename: 'src/cmd/migrator-helpers.ts',
    }),
    // a library module only named like the migrate entrypoint: its config is read and a store built
    // at the top level, but it starts no run; its lock helper runs wherever it is called
    invalid(
      lines(
        "import { loadConfig } from '../config';",
        'const { databaseUrl } = loadConfig();',
        'export async function withMigrationLock(client, fn) {',
        "  await client.query('SELECT pg_try_advisory_lock(42)');",
        '  try {',
        '    return await fn(client);',
        '  } finally {',
        "    await client.query('SELECT pg_advisory_unlock(42)');",
        '  }',
        '}',
      ),
      (c) => [lock(c, 'pg_try_advisory_lock'), unlock(c, 'pg_advisory_unlock')],
      { filename: 'src/internal/database/migrate.ts' },
    ),
    // a folder whose name only contains a test word is not test code
    invalid(lines(PG, "await pool.query('SELECT pg_advisory_lock(1)');"), (c) => [lock(c, 'pg_advisory_lock')], {
      filename: 'src/contest/close-round.ts',
    }),
    // a postgres.js connection handed in (a reserved connection, a pool's \`client\`): its tag is the
    // caller's, not a name the catalogue knows; the SQL is read all the same
    invalid(
      lines(
        'type Reserved = (strings: TemplateStringsArray, ...values: unknown[]) => Promise<unknown[]>;',
        'export class Mutex {',
        '  async tryLock(client: Reserved, key: bigint) {',
        '    const rows = await client`select pg_try_advisory_lock(${key}) as ok`;',
        '    return rows.length > 0;',
        '  }',
        '  async release(client: Reserved, key: bigint) {',
        '    await client`',
        '      select pg_advisory_unlock(${key})',
        '    `;',
        '  }',
        '}',
      ),
      (c) => [lock(c, 'pg_try_advisory_lock'), unlock(c, 'pg_advisory_unlock')],
    ),
    invalid('export const hold = (db, key) => db.reserved`SELECT pg_advisory_lock(${key})`;', (c) => [lock(c, 'pg_advisory_lock')]),
  ],
});

// Plain JavaScript (espree): the same shapes, CommonJS and ESM.
jsRuleTester.run('no-session-advisory-lock (JavaScript)', rule, {
  valid: [
    "const { Pool } = require('pg');\nconst pool = new Pool();\npool.query('SELECT pg_advisory_xact_lock(1)');",
    "pool.query('SELECT 1 -- pg_advisory_lock(1)');",
    'pool.query("SELECT \'pg_try_advisory_lock(1)\'");',
    { code: "pool.query('SELECT pg_advisory_lock(1)');", filename: 'cmd/migrate.js' },
    "console.log('pg_advisory_unlock(1) returned false');",
  ],
  invalid: [
    invalid("const { Pool } = require('pg');\nconst pool = new Pool();\npool.query('SELECT pg_try_advisory_lock($1)', [1]);", (c) => [
      lock(c, 'pg_try_advisory_lock'),
    ]),
    invalid("const postgres = require('postgres');\nconst sql = postgres();\nsql`select pg_advisory_lock(${k})`;", (c) => [
      lock(c, 'pg_advisory_lock'),
    ]),
    invalid("const LOCK = 'SELECT pg_advisory_lock($1)';\nmodule.exports = async (db) => db.query(LOCK, [1]);", (c) => [
      lock(c, 'pg_advisory_lock'),
    ]),
    invalid("knex.raw('select pg_advisory_unlock(?)', [1]);", (c) => [unlock(c, 'pg_advisory_unlock')]),
    invalid(txPg, (c) => [inTx(c, 'pg_advisory_lock', 'pg_advisory_xact_lock')]),
  ],
});

test('facts carry what advisory-lock-to-lease needs', () => {
  const findings: Finding<NoSessionAdvisoryLockMessageIds, NoSessionAdvisoryLockFacts>[] = [];
  const probe = { ...noSessionAdvisoryLock, create: (context: never) => noSessionAdvisoryLock.detect(context, (f) => findings.push(f)) };
  const linter = new Linter({ configType: 'flat' });
  const code = lines(
    'export async function backup(db: Db) {',
    "  const { rows } = await db.pool.query('SELECT pg_try_advisory_lock($1) AS ok', [KEY]);",
    '  if (!rows[0].ok) return;',
    '  try { await runBackup(); } finally {',
    "    await db.pool.query('SELECT pg_advisory_unlock($1)', [KEY]);",
    '  }',
    '}',
  );
  const messages = linter.verify(code, [
    { plugins: { rg: { rules: { probe } } } as never, rules: { 'rg/probe': 'error' }, languageOptions: { parser: tsParser as never } },
  ]);
  expect(messages).toEqual([]);
  expect(findings.map((f) => f.messageId)).toEqual(['sessionLock', 'sessionUnlock']);
  const [tryLock, release] = findings.map((f) => f.facts);
  expect(tryLock).toMatchObject({
    functionName: 'pg_try_advisory_lock',
    kind: 'try',
    shared: false,
    xactFunctionName: 'pg_try_advisory_xact_lock',
    clientText: 'db.pool',
    inTransaction: false,
  });
  expect(tryLock?.lockCall?.type).toBe('CallExpression');
  expect(tryLock?.enclosingFunction?.type).toBe('FunctionDeclaration');
  expect(tryLock?.functionNameRange && code.slice(...tryLock.functionNameRange)).toBe('pg_try_advisory_lock');
  expect(release).toMatchObject({ functionName: 'pg_advisory_unlock', kind: 'unlock', xactFunctionName: undefined, clientText: 'db.pool' });
  expect(release?.enclosingFunction).toBe(tryLock?.enclosingFunction);
});
