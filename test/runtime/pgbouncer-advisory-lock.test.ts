// The premise of no-session-advisory-lock, shown on real PostgreSQL through real PgBouncer in
// transaction pooling mode: a session advisory lock and its unlock land on different server
// connections, so the unlock fails and the lock leaks; pg_advisory_xact_lock in a transaction
// through the same pooler is released at COMMIT and serialises a second transaction.
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import pg from 'pg';

const DATABASE = 'rg_pgbouncer_advisory_lock';
let direct: pg.Client;
let pooledUrl: string;
const opened: pg.Client[] = [];

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  direct = new pg.Client({ connectionString: inject('postgresUrl').replace(/\/postgres$/, `/${DATABASE}`) });
  await direct.connect();
  // PgBouncer pools per database and user: this database has its own pool of server connections.
  pooledUrl = inject('pgbouncerUrl').replace(/\/postgres$/, `/${DATABASE}`);
});

afterAll(async () => {
  for (const client of opened) await client.end().catch(() => undefined);
  await direct?.end();
});

/** A client connection to PgBouncer (what each replica's pool holds). */
async function pooled(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pooledUrl });
  client.on('notice', () => undefined);
  await client.connect();
  opened.push(client);
  return client;
}

async function backendPid(client: pg.Client): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
}

/** Advisory locks on `key` as PostgreSQL sees them, from a direct (non-pooled) connection. */
async function advisoryLocks(key: number): Promise<Array<{ pid: number; granted: boolean }>> {
  const { rows } = await direct.query<{ pid: number; granted: boolean }>(
    `SELECT pid, granted FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND objid = $1 ORDER BY granted DESC, pid`,
    [key],
  );
  return rows;
}

test('a session advisory lock through PgBouncer leaks: the unlock runs on another server connection and returns false', async () => {
  const key = 4242;
  const worker = await pooled();
  // Statement 1 (autocommit) takes the lock; PgBouncer then returns that server connection to the pool.
  expect((await worker.query('SELECT pg_try_advisory_lock($1) AS ok', [key])).rows[0].ok).toBe(true);
  const holder = (await advisoryLocks(key))[0]?.pid;
  expect(holder).toBeDefined();

  // Another replica's transaction borrows server connections; keep the one holding the lock busy.
  const others: pg.Client[] = [];
  for (let i = 0; i < 4; i++) {
    const other = await pooled();
    await other.query('BEGIN');
    others.push(other);
    if ((await backendPid(other)) === holder) break;
  }
  const onHolder = others[others.length - 1]!;
  expect(await backendPid(onHolder)).toBe(holder);

  // The worker's unlock: a different server connection, which holds no such lock.
  const unlock = await worker.query<{ ok: boolean; pid: number }>('SELECT pg_advisory_unlock($1) AS ok, pg_backend_pid() AS pid', [key]);
  expect(unlock.rows[0]!.pid).not.toBe(holder);
  expect(unlock.rows[0]!.ok).toBe(false);
  // PostgreSQL still shows the lock, held by a server connection no replica knows it owns.
  expect(await advisoryLocks(key)).toEqual([{ pid: holder, granted: true }]);

  // The two failure modes: a replica on another backend can never take it (the job stops) …
  const blocked = await worker.query('SELECT pg_try_advisory_lock($1) AS ok, pg_backend_pid() AS pid', [key]);
  expect(blocked.rows[0]).toEqual({ ok: false, pid: unlock.rows[0]!.pid });
  await worker.query('SELECT pg_advisory_unlock_all()');
  // … and a replica that lands on the holder's backend "acquires" it too (re-entrant), running in parallel.
  expect((await onHolder.query('SELECT pg_try_advisory_lock($1) AS ok', [key])).rows[0].ok).toBe(true);

  // Clean up the leaked lock the only way left: from its own backend, while a client is on it.
  // (Terminating that backend instead can hand its dead server connection to the next test's client.)
  await onHolder.query('SELECT pg_advisory_unlock_all()');
  for (const other of others) await other.query('ROLLBACK');
  expect(await advisoryLocks(key)).toEqual([]);
});

test('pg_advisory_xact_lock inside a transaction through the same pooler is released at COMMIT and serialises a second transaction', async () => {
  const key = 4343;
  const first = await pooled();
  const second = await pooled();
  await first.query('BEGIN');
  await first.query('SELECT pg_advisory_xact_lock($1)', [key]);
  const firstPid = await backendPid(first);

  await second.query('BEGIN');
  const order: string[] = [];
  const waiting = second.query('SELECT pg_advisory_xact_lock($1)', [key]).then(() => order.push('second locked'));
  // PostgreSQL shows the second transaction waiting for the first.
  for (let i = 0; i < 50 && (await advisoryLocks(key)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const locks = await advisoryLocks(key);
  expect(locks).toHaveLength(2);
  expect(locks[0]).toEqual({ pid: firstPid, granted: true });
  expect(locks[1]?.granted).toBe(false);

  order.push('first commits');
  await first.query('COMMIT');
  await waiting;
  expect(order).toEqual(['first commits', 'second locked']);
  await second.query('COMMIT');
  // Nothing left behind on any server connection.
  expect(await advisoryLocks(key)).toEqual([]);
});
