// The PostgreSQL lease store on its own, against real PostgreSQL and real PgBouncer (transaction
// pooling), with each client shape it accepts: acquire/extend/release semantics, expiry by the
// database clock, cleanup of expired rows, the missing-table error and name validation.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { ReplicaGuardError } from '../../src/errors.js';
import { createPostgresLeaseStore, leaseTableDDL, leaseTableStatements } from '../../src/lease/postgres-store.js';
import type { LeaseStore } from '../../src/lease/store.js';
import { postgresClientKinds, type ConnectedPostgresClient } from './fixtures/postgres-store/lease-clients.js';
import { createLeaseDatabase, execute, type LeaseDatabase } from './fixtures/postgres-store/lease-database.js';

let db: LeaseDatabase;
let admin: pg.Pool;

beforeAll(async () => {
  db = await createLeaseDatabase(inject('postgresUrl'), inject('pgbouncerUrl'), 'unit');
  admin = testPool(db.directUrl, 2);
});

afterAll(async () => {
  await admin?.end();
  await db?.drop();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A pool `end()` closes completely: no idle eviction (a client the pool evicted on its own is
 * still closing when `end()` resolves, and the teardown's `DROP DATABASE … WITH (FORCE)` then
 * reaches it as an error nobody listens to), and an error on an idle client is not a test failure.
 */
function testPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 0 });
  pool.on('error', () => undefined);
  return pool;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newKey = () => `unit:${randomUUID()}`;

async function row(key: string, table = 'replica_guard_leases'): Promise<{ owner: string; remaining_ms: number } | undefined> {
  const { rows } = await admin.query<{ owner: string; remaining_ms: number }>(
    `SELECT owner, (extract(epoch FROM expires_at - statement_timestamp()) * 1000)::float8 AS remaining_ms FROM ${table} WHERE key = $1`,
    [key],
  );
  return rows[0];
}

/** Waits until the database itself says the lease has expired (its clock, not ours). */
async function untilExpiredInDatabase(key: string): Promise<void> {
  for (;;) {
    const { rows } = await admin.query<{ expired: boolean }>(
      'SELECT expires_at <= statement_timestamp() AS expired FROM replica_guard_leases WHERE key = $1',
      [key],
    );
    if (rows[0]?.expired !== false) return;
    await sleep(20);
  }
}

const routes = [
  { route: 'direct', url: () => db.directUrl },
  { route: 'through PgBouncer (transaction pooling)', url: () => db.pooledUrl },
] as const;

describe.each(postgresClientKinds.flatMap((kind) => routes.map((r) => ({ ...r, kind, label: `${kind.name} ${r.route}` }))))(
  '$label',
  ({ kind, url }) => {
    let connected: ConnectedPostgresClient;
    let store: LeaseStore;

    beforeAll(async () => {
      connected = await kind.connect(url());
      store = createPostgresLeaseStore(connected.client);
    });

    afterAll(async () => {
      await connected?.close();
    });

    test('acquire takes a free key once; a second owner (or the same one again) is refused while it is held', async () => {
      const key = newKey();
      expect(store.kind).toBe('postgres');
      expect(await store.acquire(key, 'owner-a', 10_000)).toBe(true);
      expect(await store.acquire(key, 'owner-b', 10_000)).toBe(false);
      expect(await store.acquire(key, 'owner-a', 10_000)).toBe(false);
      expect((await row(key))?.owner).toBe('owner-a');
    });

    test('extend and release compare the owner: another owner can neither renew nor delete the lease', async () => {
      const key = newKey();
      await store.acquire(key, 'owner-a', 1000);
      expect(await store.extend(key, 'owner-b', 60_000)).toBe(false);
      expect(await store.release(key, 'owner-b')).toBe(false);
      expect((await row(key))?.owner).toBe('owner-a');

      expect(await store.extend(key, 'owner-a', 60_000)).toBe(true);
      const remaining = (await row(key))!.remaining_ms;
      expect(remaining).toBeGreaterThan(55_000);
      expect(remaining).toBeLessThanOrEqual(60_000);

      expect(await store.release(key, 'owner-a')).toBe(true);
      expect(await row(key)).toBeUndefined();
      expect(await store.release(key, 'owner-a')).toBe(false);
      expect(await store.acquire(key, 'owner-b', 1000)).toBe(true);
    });

    test('expiry follows the database clock: a pod clock an hour ahead changes nothing', async () => {
      const key = newKey();
      const realNow = Date.now();
      vi.spyOn(Date, 'now').mockReturnValue(realNow + 3_600_000);
      expect(await store.acquire(key, 'owner-a', 400)).toBe(true);
      expect(await store.acquire(key, 'owner-b', 400)).toBe(false);
      const remaining = (await row(key))!.remaining_ms;
      expect(remaining).toBeGreaterThan(0);
      expect(remaining).toBeLessThanOrEqual(400);
      vi.restoreAllMocks();

      await untilExpiredInDatabase(key);
      // Expired: the holder can no longer renew or "release" it, and anyone may take it over.
      expect(await store.extend(key, 'owner-a', 400)).toBe(false);
      expect(await store.acquire(key, 'owner-b', 10_000)).toBe(true);
      expect((await row(key))?.owner).toBe('owner-b');
      expect(await store.release(key, 'owner-a')).toBe(false);
    });

    test('a lease that expired while its holder still owns the row cannot be released as if live', async () => {
      const key = newKey();
      await store.acquire(key, 'owner-a', 50);
      await untilExpiredInDatabase(key);
      expect(await store.release(key, 'owner-a')).toBe(false);
      expect(await row(key)).toBeUndefined(); // the stale row is gone all the same
    });

    test('20 concurrent acquires of one key by 20 owners: exactly one wins', async () => {
      const key = newKey();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.acquire(key, `owner-${i}`, 10_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await row(key))?.owner).toBe(`owner-${results.indexOf(true)}`);
    });

    test('a missing lease table is a LEASE_TABLE_MISSING error naming the table and pointing at the DDL', async () => {
      for (const tableName of ['no_such_leases', 'no_such_schema.leases']) {
        const missing = createPostgresLeaseStore(connected.client, { tableName });
        const error = await missing.acquire(newKey(), 'owner-a', 1000).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ReplicaGuardError);
        expect(error).toMatchObject({ code: 'LEASE_TABLE_MISSING', cause: { code: '42P01' } });
        expect((error as Error).message).toContain(tableName);
        expect((error as Error).message).toContain('leaseTableDDL');
        expect((error as Error).message).toContain('migrate entrypoint');
      }
    });
  },
);

describe('cleanup of expired rows, inside acquire', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = testPool(db.directUrl, 4);
    await execute(db.directUrl, leaseTableStatements('sweep_leases'));
  });
  afterAll(async () => {
    await pool?.end();
  });

  async function seed(prefix: string, count: number, expiresIn: string): Promise<void> {
    await admin.query(
      `INSERT INTO sweep_leases SELECT $1 || g, 'someone', statement_timestamp() + $2::interval FROM generate_series(1, $3::int) g`,
      [prefix, expiresIn, count],
    );
  }
  const count = async (prefix: string) =>
    Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM sweep_leases WHERE key LIKE $1', [`${prefix}%`])).rows[0]!.n);

  test('a sweeping acquire deletes at most sweepLimit expired rows of other keys and never a live one', async () => {
    const store = createPostgresLeaseStore(pool, { tableName: 'sweep_leases', sweepLimit: 8, sweepEvery: 1 });
    await seed('expired:', 20, '-1 minute');
    await seed('live:', 5, '1 hour');
    expect(await store.acquire('fresh:1', 'owner-a', 60_000)).toBe(true);
    expect(await count('expired:')).toBe(12);
    expect(await store.acquire('fresh:2', 'owner-a', 60_000)).toBe(true);
    expect(await store.acquire('fresh:3', 'owner-a', 60_000)).toBe(true);
    expect(await count('expired:')).toBe(0);
    expect(await count('live:')).toBe(5);
    expect(await count('fresh:')).toBe(3);
  });

  test('one acquire in sweepEvery carries the sweep (the first one included)', async () => {
    const store = createPostgresLeaseStore(pool, { tableName: 'sweep_leases', sweepLimit: 8, sweepEvery: 4 });
    await seed('every:', 20, '-1 minute');
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect(await store.acquire(`every-fresh:${i}`, 'owner-a', 60_000)).toBe(true);
      remaining.push(await count('every:'));
    }
    expect(remaining).toEqual([12, 12, 12, 12, 4]);
  });

  test('claims on ever-new keys (one per period) keep the table at about its live leases', async () => {
    const store = createPostgresLeaseStore(pool, { tableName: 'sweep_leases' });
    for (let i = 0; i < 300; i++) {
      expect(await store.acquire(`period:${i}`, 'owner-a', 1)).toBe(true);
      if (i % 50 === 0) await sleep(5);
    }
    await sleep(5);
    await store.acquire('period:last', 'owner-a', 60_000);
    // Defaults: 32 rows per sweep, one acquire in 8 sweeps — at most about 8 expired rows linger.
    expect(await count('period:')).toBeLessThanOrEqual(16);
  });

  test('sweepLimit 0 turns the cleanup off', async () => {
    const store = createPostgresLeaseStore(pool, { tableName: 'sweep_leases', sweepLimit: 0 });
    await seed('kept:', 3, '-1 minute');
    expect(await store.acquire('other', 'owner-a', 60_000)).toBe(true);
    expect(await count('kept:')).toBe(3);
  });

  test('an expired lease is taken over by its next claimant even when a sweep could have deleted it', async () => {
    const store = createPostgresLeaseStore(pool, { tableName: 'sweep_leases' });
    await seed('takeover:', 1, '-1 second');
    expect(await store.acquire('takeover:1', 'owner-b', 60_000)).toBe(true);
    expect((await admin.query('SELECT owner FROM sweep_leases WHERE key = $1', ['takeover:1'])).rows).toEqual([{ owner: 'owner-b' }]);
  });

  test('many replicas claiming and sweeping the same expired keys at once: no deadlock, no error', async () => {
    const store = createPostgresLeaseStore(pool, { tableName: 'sweep_leases', sweepEvery: 1 });
    const keys = Array.from({ length: 6 }, (_, i) => `contended:${i}`);
    const deadline = Date.now() + 1500;
    let operations = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        while (Date.now() < deadline) {
          // ttl 1 ms: every key is expired again almost at once, so every acquire both takes
          // over a key and sweeps the others' — the shape that deadlocks if a sweep locks first.
          await store.acquire(keys[(worker + operations) % keys.length]!, `worker-${worker}`, 1);
          operations++;
        }
      }),
    );
    expect(operations).toBeGreaterThan(100);
  });
});

describe('the signal: a statement not yet sent when the guard gives up is never sent', () => {
  test.each(['pg Pool', 'postgres.js'] as const)('%s with its one connection busy', async (name) => {
    const kind = postgresClientKinds.find((k) => k.name === name)!;
    const connected = await kind.connect(db.directUrl, { max: 1 });
    try {
      const store = createPostgresLeaseStore(connected.client);
      const key = newKey();
      // Occupy the only connection, so the acquire has to wait for it.
      const busy =
        name === 'pg Pool'
          ? (connected.client as pg.Pool).query('SELECT pg_sleep(0.4)')
          : // postgres.js queries are lazy: .then() sends it.
            (connected.client as unknown as (s: TemplateStringsArray) => Promise<unknown>)`SELECT pg_sleep(0.4)`.then((rows) => rows);
      await sleep(50);
      const controller = new AbortController();
      const acquired = store.acquire(key, 'owner-a', 60_000, controller.signal);
      const reason = new Error('timed out');
      controller.abort(reason);
      await expect(acquired).rejects.toBe(reason);
      await busy;
      await sleep(100);
      expect(await row(key)).toBeUndefined();
      // The connection is still good for the next claim.
      expect(await store.acquire(key, 'owner-b', 1000)).toBe(true);
    } finally {
      await connected.close();
    }
  });
});

describe('table names', () => {
  test('a schema-qualified table works once its migration ran', async () => {
    await execute(db.directUrl, ['CREATE SCHEMA ops', ...leaseTableStatements('ops.job_leases')]);
    const store = createPostgresLeaseStore(admin, { tableName: 'ops.job_leases' });
    const key = newKey();
    expect(await store.acquire(key, 'owner-a', 1000)).toBe(true);
    expect((await admin.query('SELECT owner FROM ops.job_leases WHERE key = $1', [key])).rows).toEqual([{ owner: 'owner-a' }]);
  });

  test.each([['leases; DROP TABLE users'], ['"leases"'], ['a.b.c'], ['1leases'], [''], ['ops.'], ['x'.repeat(64)]])(
    'rejects %j with an INVALID_ARGUMENT error naming it',
    (tableName) => {
      expect(() => createPostgresLeaseStore(admin, { tableName })).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`"${tableName}"`) }),
      );
      expect(() => leaseTableDDL(tableName)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    },
  );

  test('identifiers are quoted in the DDL, and the default table is replica_guard_leases', () => {
    expect(leaseTableDDL()).toContain('CREATE TABLE IF NOT EXISTS "replica_guard_leases" (');
    expect(leaseTableDDL('Ops.Leases')).toContain('CREATE TABLE IF NOT EXISTS "Ops"."Leases" (');
    expect(leaseTableDDL('Ops.Leases')).toContain('CREATE INDEX IF NOT EXISTS "Leases_expires_at_idx" ON "Ops"."Leases" (expires_at)');
  });
});

describe('bad input', () => {
  test('an object that is no PostgreSQL client is an UNKNOWN_CLIENT error', () => {
    expect(() => createPostgresLeaseStore({} as never)).toThrowError(
      expect.objectContaining({ code: 'UNKNOWN_CLIENT', message: expect.stringContaining('pg Pool/Client') }),
    );
  });

  test.each([-1, 1.5, 1001, Number.NaN])('sweepLimit %s is an INVALID_ARGUMENT error', (sweepLimit) => {
    expect(() => createPostgresLeaseStore(admin, { sweepLimit })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('sweepLimit') }),
    );
  });

  test.each([0, -2, 2.5])('sweepEvery %s is an INVALID_ARGUMENT error', (sweepEvery) => {
    expect(() => createPostgresLeaseStore(admin, { sweepEvery })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('sweepEvery') }),
    );
  });
});
