// no-session-advisory-lock on SQL a query builder assembles: the lock call as a select-list
// fragment (a Drizzle or Kysely `sql` template, a TypeORM `select` string, a knex `raw` column),
// and the function's bare name put into the SQL elsewhere (Kysely `eb.fn(…)`, a name picked by a
// condition or kept in a constant). Each is reported; a fragment taking the transaction-level
// lock, a result column read back by the lock's name, a type naming it, a non-lock fragment and
// a name looked for in a text (an error message searched, compared, matched) are not.
import { ruleTester } from './rule-tester.js';
import { noSessionAdvisoryLock, type NoSessionAdvisoryLockMessageIds } from '../../rules/no-session-advisory-lock.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noSessionAdvisoryLock as unknown as Parameters<typeof ruleTester.run<NoSessionAdvisoryLockMessageIds, readonly unknown[]>>[1];

/** The `nth` occurrence of `text` in `code`, as a report location spanning `length` characters. */
function span(code: string, text: string, length: number, nth = 0) {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = code.indexOf(text, index + 1);
  if (index === -1) throw new Error(`${text} not in test code`);
  const before = code.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return { line, column, endLine: line, endColumn: column + length };
}
const lockIn = (code: string, name: string, nth = 0) => ({
  messageId: 'sessionLock' as const,
  ...span(code, `${name}(`, name.length, nth),
});
/** A bare name: the squiggle covers the whole string literal, quotes included. */
const bare = (code: string, name: string, messageId: 'sessionLock' | 'sessionUnlock' = 'sessionLock', nth = 0) => ({
  messageId,
  ...span(code, `'${name}'`, name.length + 2, nth),
});

const drizzleSelect = lines(
  "import { sql } from 'drizzle-orm';",
  "import { db } from './db';",
  'export async function tryBillingLock(key: number) {',
  '  const [row] = await db.select({ held: sql<boolean>`pg_try_advisory_lock(${key})` }).from(jobsTable).limit(1);',
  '  return row?.held === true;',
  '}',
);
const typeormSelect = lines(
  'export async function tryLock(dataSource: DataSource, key: number) {',
  "  const row = await dataSource.createQueryBuilder().select('pg_try_advisory_lock(:key)', 'held').setParameter('key', key).getRawOne();",
  '  return row.held;',
  '}',
);
const knexColumn = lines(
  'export async function tryLock(knex: Knex, key: number) {',
  "  const [row] = await knex.select(knex.raw('pg_try_advisory_lock(?) as held', [key]));",
  '  return row.held;',
  '}',
);
const kyselyFn = lines(
  'export async function tryLock(db: Kysely<DB>, key: number) {',
  "  const row = await db.selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_lock', [eb.val(key)]).as('held')).executeTakeFirst();",
  '  return row?.held;',
  '}',
);
const pickedName = lines(
  'export async function lock(pool: Pool, key: number, shared: boolean) {',
  "  const fn = shared ? 'pg_advisory_lock_shared' : 'pg_advisory_lock';",
  '  await pool.query(`SELECT ${fn}($1)`, [key]);',
  '}',
);
const pgPromiseFunc = lines(
  'export async function lock(db: IDatabase<unknown>, key: number) {',
  "  if (!isRetryable(String(key))) return db.func('pg_advisory_lock', [key]);",
  '}',
);
const namesInConstant = lines(
  "const LOCK_SQL_FN = { take: 'PG_TRY_ADVISORY_LOCK', release: 'pg_advisory_unlock' } as const;",
  'export async function release(pool: Pool, key: number) {',
  '  await pool.query(`select ${LOCK_SQL_FN.release}($1)`, [key]);',
  '}',
);

ruleTester.run('no-session-advisory-lock (fragments and bare names)', rule, {
  valid: [
    // The transaction-level lock as a fragment, inside a transaction.
    lines(
      "import { sql } from 'drizzle-orm';",
      'export async function once(db: Db, key: number) {',
      '  await db.transaction(async (tx) => {',
      '    const [row] = await tx.select({ ok: sql<boolean>`pg_try_advisory_xact_lock(${key})` }).from(jobsTable);',
      '    if (row?.ok) await work(tx);',
      '  });',
      '}',
    ),
    // A fragment calling another function; a column read back by the lock's name; a type naming it.
    lines(
      "import { sql } from 'drizzle-orm';",
      'export async function count(db: Db) {',
      '  return db.select({ n: sql<number>`count(*)` }).from(jobsTable);',
      '}',
      "export function held(row: { 'pg_try_advisory_lock': boolean }) {",
      "  return row['pg_try_advisory_lock'];",
      '}',
    ),
    // Prose that mentions the function is no SQL.
    "logger.warn('pg_advisory_lock is held by another worker');",
    // A retry script that looks for the function's name in a failed command's output.
    lines(
      'function isRetryable(output) {',
      '  const text = String(output).toLowerCase();',
      "  return text.includes('pg_advisory_lock') || text.startsWith('pg_try_advisory_lock') || /timeout/.test(text);",
      '}',
      "const lockError = new RegExp('pg_advisory_unlock');",
      "export const isLockCall = (fn) => fn === 'pg_advisory_lock' || fn.indexOf('pg_advisory_lock_shared') === 0;",
      "export function kindOf(fn) { switch (fn) { case 'pg_advisory_unlock': return 'unlock'; default: return lockError.test(fn) ? 'x' : 'lock'; } }",
    ),
  ],
  invalid: [
    { code: drizzleSelect, errors: [lockIn(drizzleSelect, 'pg_try_advisory_lock')] },
    { code: typeormSelect, errors: [lockIn(typeormSelect, 'pg_try_advisory_lock')] },
    { code: knexColumn, errors: [lockIn(knexColumn, 'pg_try_advisory_lock')] },
    { code: kyselyFn, errors: [bare(kyselyFn, 'pg_try_advisory_lock')] },
    // A name handed to a call that runs it (pg-promise `func`), not to a text search.
    { code: pgPromiseFunc, errors: [bare(pgPromiseFunc, 'pg_advisory_lock')] },
    { code: pickedName, errors: [bare(pickedName, 'pg_advisory_lock_shared'), bare(pickedName, 'pg_advisory_lock')] },
    {
      code: namesInConstant,
      errors: [bare(namesInConstant, 'PG_TRY_ADVISORY_LOCK'), bare(namesInConstant, 'pg_advisory_unlock', 'sessionUnlock')],
    },
  ],
});
