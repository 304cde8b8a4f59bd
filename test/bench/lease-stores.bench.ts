// Lease store benchmark (a script, not a test): `npm run bench:stores`. Starts its own
// redis-server, PostgreSQL and PgBouncer (transaction pooling) and measures, in the SAME run and
// interleaved slice by slice, the Redis store against the PostgreSQL store — with `pg` and
// postgres.js, directly and through PgBouncer — at the LeaseStore level (the backend's cost per
// claim, what setLeaseClient resolves to). Prints percentiles, rates and ratios to Redis.
//
//   winning claim   acquire of a fresh key (claimPeriod's first ask in a period: an INSERT)
//   losing claim    acquire of a held key (every other replica's ask in that period)
//   lease cycle     acquire + extend + release (runExclusive's shortest life)
//   throughput      winning claims with 32 callers in flight
//
// One extra contender runs the PostgreSQL store with `sweepLimit: 0` (no cleanup of expired rows
// inside acquire), to show what the cleanup costs.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import postgres from 'postgres';
import { resolveLeaseStore } from '../../src/lease/resolve-store.js';
import { leaseTableStatements } from '../../src/lease/postgres-store.js';
import type { LeaseStore } from '../../src/lease/store.js';
import { removeDir, startPgBouncer, startPostgres, startRedis } from '../harness/servers.js';

// Interleaved finely: every contender runs a short slice in turn (rotating the order), so a
// burst of load on a shared machine hits all of them alike instead of one contender's round.
const SLICES = 16;
const OPS_PER_SLICE = 50;
const CONCURRENCY = 32;
const THROUGHPUT_SLICE_MS = 250;
// Short, like a claimPeriod key past its period: expired rows are swept by later acquires.
const TTL_MS = 1000;
const UNSWEPT_TABLE = 'replica_guard_leases_unswept';

interface Contender {
  name: string;
  store: LeaseStore;
  close(): Promise<void>;
}

/** Latencies and busy time of one scenario for one contender, summed over its slices. */
class Measured {
  readonly latencies: number[] = [];
  elapsedMs = 0;
  ops = 0;
  add(latencies: number[], elapsedMs: number): void {
    this.latencies.push(...latencies);
    this.elapsedMs += elapsedMs;
    this.ops += latencies.length;
  }
  percentile(p: number): number {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  }
  perSecond(): number {
    return (this.ops / this.elapsedMs) * 1000;
  }
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function slice(into: Measured, op: (i: number) => Promise<unknown>): Promise<void> {
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < OPS_PER_SLICE; i++) {
    const t = performance.now();
    await op(i);
    latencies.push(performance.now() - t);
  }
  into.add(latencies, performance.now() - start);
}

async function throughputSlice(store: LeaseStore, run: string, into: { ops: number; elapsedMs: number }): Promise<void> {
  const deadline = performance.now() + THROUGHPUT_SLICE_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = 0; performance.now() < deadline; i++) {
        if (!(await store.acquire(`${run}:tp:${worker}:${i}`, 'owner', TTL_MS))) throw new Error('a fresh key was refused');
        into.ops++;
      }
    }),
  );
  into.elapsedMs += performance.now() - start;
}

async function main(): Promise<void> {
  const [redisServer, postgresServer] = await Promise.all([startRedis(), startPostgres()]);
  const pgbouncer = await startPgBouncer(postgresServer, 4);
  const contenders: Contender[] = [];
  try {
    const setup = new pg.Client({ connectionString: postgresServer.url });
    await setup.connect();
    // The unswept contender gets its own table: in a shared one the others would sweep its rows.
    for (const statement of [...leaseTableStatements(), ...leaseTableStatements(UNSWEPT_TABLE)]) await setup.query(statement);
    await setup.end();

    const redis = new Redis(redisServer.url, { lazyConnect: true });
    await redis.connect();
    contenders.push({ name: 'Redis (ioredis)', store: resolveLeaseStore(redis), close: async () => redis.disconnect() });
    for (const [route, url] of [
      ['direct', postgresServer.url],
      ['PgBouncer', pgbouncer.url],
    ] as const) {
      const pool = new pg.Pool({ connectionString: url, max: 8 });
      contenders.push({
        name: `PostgreSQL ${route} (pg Pool)`,
        store: resolveLeaseStore(pool, { store: 'postgres' }),
        close: () => pool.end(),
      });
      if (route === 'direct') {
        // The same without the expired-row sweep in acquire: what the cleanup costs per claim.
        const unswept = new pg.Pool({ connectionString: url, max: 8 });
        contenders.push({
          name: 'PostgreSQL direct (pg Pool, sweepLimit 0)',
          store: resolveLeaseStore(unswept, { store: 'postgres', sweepLimit: 0, tableName: UNSWEPT_TABLE }),
          close: () => unswept.end(),
        });
      }
      const sql = postgres(url, { max: 8, fetch_types: false, onnotice: () => undefined });
      contenders.push({
        name: `PostgreSQL ${route} (postgres.js)`,
        store: resolveLeaseStore(sql, { store: 'postgres' }),
        close: () => sql.end({ timeout: 1 }),
      });
    }
    // Warm up: connections open, statements planned once.
    for (const { store } of contenders) for (let i = 0; i < 200; i++) await store.acquire(`warm:${randomUUID()}`, 'owner', TTL_MS);

    const results = new Map<string, { win: Measured; lose: Measured; cycle: Measured; tp: { ops: number; elapsedMs: number } }>();
    for (const c of contenders) {
      results.set(c.name, { win: new Measured(), lose: new Measured(), cycle: new Measured(), tp: { ops: 0, elapsedMs: 0 } });
      await c.store.acquire(`held:${c.name}`, 'holder', 600_000);
    }
    for (let s = 0; s < SLICES; s++) {
      const order = contenders.map((_, i) => contenders[(i + s) % contenders.length]!);
      for (const { name, store } of order) {
        const run = `s${s}:${randomUUID()}`;
        const r = results.get(name)!;
        await slice(r.win, (i) => store.acquire(`${run}:win:${i}`, 'owner', TTL_MS));
        await slice(r.lose, () => store.acquire(`held:${name}`, 'other', TTL_MS));
        await slice(r.cycle, async (i) => {
          const key = `${run}:cycle:${i}`;
          await store.acquire(key, 'owner', TTL_MS);
          await store.extend(key, 'owner', TTL_MS);
          await store.release(key, 'owner');
        });
        await throughputSlice(store, run, r.tp);
      }
    }

    const base = results.get(contenders[0]!.name)!;
    const tpOf = (tp: { ops: number; elapsedMs: number }) => (tp.ops / tp.elapsedMs) * 1000;
    const lines = [
      `Lease stores: ${SLICES} interleaved slices of ${OPS_PER_SLICE} sequential ops per scenario (${SLICES * OPS_PER_SLICE} each) and ${SLICES} x ${THROUGHPUT_SLICE_MS} ms with ${CONCURRENCY} callers; ttl ${TTL_MS} ms; PgBouncer pool 4, client pools 8.`,
      '',
      `| store | winning claim p50 / p99 (ms) | claims/s, 1 caller | losing claim p50 (ms) | acquire+extend+release p50 (ms) | claims/s, ${CONCURRENCY} callers | winning-claim p50 vs Redis | throughput vs Redis |`,
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ];
    for (const { name } of contenders) {
      const r = results.get(name)!;
      lines.push(
        `| ${name} | ${fmt(r.win.percentile(50), 3)} / ${fmt(r.win.percentile(99), 3)} | ${fmt(r.win.perSecond(), 0)} | ${fmt(r.lose.percentile(50), 3)} | ${fmt(r.cycle.percentile(50), 3)} | ${fmt(tpOf(r.tp), 0)} | ${fmt(r.win.percentile(50) / base.win.percentile(50), 1)}x | ${fmt(tpOf(r.tp) / tpOf(base.tp))}x |`,
      );
    }
    console.log(lines.join('\n'));
  } finally {
    for (const c of contenders) await c.close().catch(() => undefined);
    await pgbouncer.stop();
    await Promise.all([redisServer.stop(), postgresServer.stop()]);
    for (const server of [pgbouncer, redisServer, postgresServer]) removeDir(server);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
