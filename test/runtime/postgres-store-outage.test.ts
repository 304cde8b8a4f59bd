// Fail closed on PostgreSQL: a lease table that does not answer in time, a database that cannot
// be reached, and a server that stops under a running job make claims return false within
// timeoutMs — directly and through PgBouncer in transaction pooling. Each route gets its own
// PostgreSQL (and PgBouncer) so it can be stopped.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BackendTimeoutError,
  claimOnce,
  claimPeriod,
  LeaseLostError,
  ReplicaGuardError,
  runExclusive,
  setLeaseClient,
  type SkipEvent,
} from '../../src/index.js';
import { eventually, sleep, timed } from '../harness/timing.js';
import { freePort, removeDir, startPgBouncer, startPostgres, type RunningPgBouncer, type RunningPostgres } from '../harness/servers.js';
import { postgresClientKinds, type ConnectedPostgresClient } from './fixtures/postgres-store/lease-clients.js';
import { execute } from './fixtures/postgres-store/lease-database.js';
import { leaseTableStatements } from '../../src/lease/postgres-store.js';

const TIMEOUT_MS = 500;
const SLACK_MS = 400;
const routes = [
  { route: 'direct', client: 'pg Pool', viaPgBouncer: false },
  { route: 'through PgBouncer', client: 'pg Pool', viaPgBouncer: true },
  { route: 'through PgBouncer', client: 'postgres.js', viaPgBouncer: true },
] as const;

describe.each(routes)('$client $route', ({ client, viaPgBouncer }) => {
  const prefix = `pg-outage:${randomUUID()}:`;
  let postgres: RunningPostgres;
  let pgbouncer: RunningPgBouncer | undefined;
  let connected: ConnectedPostgresClient;
  let admin: pg.Client;
  const skips: SkipEvent[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    await execute(postgres.url, leaseTableStatements());
    if (viaPgBouncer) pgbouncer = await startPgBouncer(postgres);
    // fetchTypes: false, as a service on PgBouncer configures postgres.js (see lease-clients.ts).
    connected = await postgresClientKinds.find((kind) => kind.name === client)!.connect((pgbouncer ?? postgres).url, { fetchTypes: false });
    admin = new pg.Client({ connectionString: postgres.url });
    admin.on('error', () => undefined);
    await admin.connect();
    setLeaseClient(connected.client, {
      store: 'postgres',
      prefix,
      timeoutMs: TIMEOUT_MS,
      logger: {},
      onSkip: (event) => skips.push(event),
    });
  });

  afterAll(async () => {
    setLeaseClient(null, { logger: {} });
    // Servers first: a statement parked in PgBouncer (waiting for a server that is gone) only
    // ends when PgBouncer closes its client connections, and pool.end() waits for it.
    for (const server of [pgbouncer, postgres]) if (server) await server.stop();
    await Promise.race([connected?.close().catch(() => undefined), sleep(5000)]);
    await admin?.end().catch(() => undefined);
    for (const server of [pgbouncer, postgres]) if (server) removeDir(server);
  });

  const owner = async (key: string) =>
    (
      await admin.query<{ owner: string }>('SELECT owner FROM replica_guard_leases WHERE key = $1 AND expires_at > statement_timestamp()', [
        prefix + key,
      ])
    ).rows[0]?.owner ?? null;

  const statementsInFlight = async () =>
    Number(
      (
        await admin.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active' AND query ILIKE '%replica_guard_leases%'",
        )
      ).rows[0]!.n,
    );

  test('a lease table that does not answer in time (locked by a migration): the claim fails closed, and the claim that lands late is given back', async () => {
    // Warm up (connections open) within the short timeout of a loaded machine.
    await eventually('a first claim', () => claimOnce(`warm-up:${randomUUID()}`, 60_000), 10_000);
    skips.length = 0;
    const migration = new pg.Client({ connectionString: postgres.url });
    await migration.connect();
    await migration.query('BEGIN');
    await migration.query('LOCK TABLE replica_guard_leases IN ACCESS EXCLUSIVE MODE');
    try {
      const slow = await timed(() => claimOnce('slow', 60_000));
      expect(slow.value).toBe(false);
      expect(slow.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      expect(skips).toEqual([{ guard: 'claimOnce', key: 'slow', reason: 'backend-unavailable', error: expect.any(BackendTimeoutError) }]);
    } finally {
      await migration.query('ROLLBACK');
      await migration.end();
    }
    // The INSERT waited on the lock and then took the key; the guard had already reported a skip,
    // so it deletes its own late claim (compare-and-delete) instead of blocking the key.
    // Wait until no statement on the table is still running (the late claim, then its release).
    await eventually(
      'the late claim is released',
      async () => (await statementsInFlight()) === 0 && (await owner('slow')) === null,
      10_000,
    );
    expect(await claimOnce('slow', 60_000)).toBe(true);
  });

  test('a database that cannot be reached (nothing listening): claims fail closed within timeoutMs', async () => {
    const port = await freePort();
    const unreachable = await postgresClientKinds
      .find((kind) => kind.name === client)!
      .connect(`postgres://postgres@127.0.0.1:${port}/postgres`);
    const unreachableSkips: SkipEvent[] = [];
    setLeaseClient(unreachable.client, {
      store: 'postgres',
      prefix,
      timeoutMs: TIMEOUT_MS,
      logger: {},
      onSkip: (event) => unreachableSkips.push(event),
    });
    try {
      const period = await timed(() => claimPeriod('sweep', 60_000));
      expect(period.value).toBe(false);
      expect(period.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      expect(await runExclusive('job', 5000, async () => 'ran')).toEqual({ ran: false, leaseLost: false, reason: 'backend-unavailable' });
      expect(unreachableSkips.map((s) => [s.guard, s.reason])).toEqual([
        ['claimPeriod', 'backend-unavailable'],
        ['runExclusive', 'backend-unavailable'],
      ]);
      expect(unreachableSkips.every((s) => s.error instanceof ReplicaGuardError)).toBe(true);
    } finally {
      setLeaseClient(connected.client, {
        store: 'postgres',
        prefix,
        timeoutMs: TIMEOUT_MS,
        logger: {},
        onSkip: (event) => skips.push(event),
      });
      await unreachable.close().catch(() => undefined);
    }
  });

  test('PostgreSQL stops under a running runExclusive: the signal aborts with LeaseLostError; afterwards every claim fails closed within timeoutMs', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let reason: unknown;
      const result = await runExclusive('long-job', 600, async (signal) => {
        await sleep(100);
        await postgres.stop();
        await new Promise<void>((resolve) => {
          // A slow shutdown may outlast a renewal: the signal can abort before we listen.
          if (signal.aborted) {
            reason = signal.reason;
            return resolve();
          }
          const giveUp = setTimeout(resolve, 5000);
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            clearTimeout(giveUp);
            resolve();
          });
        });
        return 'stopped early';
      });
      expect(result).toEqual({ ran: true, value: 'stopped early', leaseLost: true, fencingToken: expect.any(Number) });
      expect(reason).toBeInstanceOf(LeaseLostError);

      skips.length = 0;
      for (const claim of [() => claimPeriod('hourly', 3_600_000), () => claimOnce('event-1', 60_000)]) {
        const outcome = await timed(claim);
        expect(outcome.value).toBe(false);
        expect(outcome.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      }
      expect(skips.map((s) => [s.guard, s.reason])).toEqual([
        ['claimPeriod', 'backend-unavailable'],
        ['claimOnce', 'backend-unavailable'],
      ]);
      await sleep(200);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
