// Lease store benchmark (a script, not a test): `npm run bench:stores`. Starts its own
// redis-server, PostgreSQL and PgBouncer (transaction pooling) and measures, in the SAME run and
// interleaved round by round, the Redis store against the PostgreSQL store — with `pg` and
// postgres.js, directly and through PgBouncer — at the LeaseStore level (the backend's cost per
// claim, what setLeaseClient resolves to). Prints medians over rounds and ratios to Redis.
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

const ROUNDS = 3;
const SEQUENTIAL_CALLS = 800;
const CONCURRENCY = 32;
const THROUGHPUT_MS = 1500;
// Short, like a claimPeriod key past its period: expired rows are swept by later acquires.
const TTL_MS = 1000;

interface Contender {
  name: string;
  store: LeaseStore;
  close(): Promise<void>;
}

interface Sample {
  p50: number;
  p99: number;
  perSecond: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function sequential(op: (i: number) => Promise<unknown>): Promise<Sample> {
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
    const t = performance.now();
    await op(i);
    latencies.push(performance.now() - t);
  }
  const elapsed = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: (SEQUENTIAL_CALLS / elapsed) * 1000 };
}

async function throughput(store: LeaseStore, run: string): Promise<number> {
  let done = 0;
  const deadline = performance.now() + THROUGHPUT_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = 0; performance.now() < deadline; i++) {
        if (!(await store.acquire(`${run}:tp:${worker}:${i}`, 'owner', TTL_MS))) throw new Error('a fresh key was refused');
        done++;
      }
    }),
  );
  return (done / (performance.now() - start)) * 1000;
}

async function main(): Promise<void> {
  const [redisServer, postgresServer] = await Promise.all([startRedis(), startPostgres()]);
  const pgbouncer = await startPgBouncer(postgresServer, 4);
  const contenders: Contender[] = [];
  try {
    const setup = new pg.Client({ connectionString: postgresServer.url });
    await setup.connect();
    for (const statement of leaseTableStatements()) await setup.query(statement);
    await setup.end();

    const redis = new Redis(redisServer.url, { lazyConnect: true });
    await redis.connect();
    contenders.push({ name: 'Redis (ioredis)', store: resolveLeaseStore(redis), close: async () => redis.disconnect() });
    for (const [route, url] of [
      ['direct', postgresServer.url],
      ['PgBouncer', pgbouncer.url],
    ] as const) {
      const pool = new pg.Pool({ connectionString: url, max: 8 });
      contenders.push({ name: `PostgreSQL ${route} (pg Pool)`, store: resolveLeaseStore(pool, { store: 'postgres' }), close: () => pool.end() });
      if (route === 'direct') {
        // The same without the expired-row sweep in acquire: what the cleanup costs per claim.
        const unswept = new pg.Pool({ connectionString: url, max: 8 });
        contenders.push({ name: 'PostgreSQL direct (pg Pool, sweepLimit 0)', store: resolveLeaseStore(unswept, { store: 'postgres', sweepLimit: 0 }), close: () => unswept.end() });
      }
      const sql = postgres(url, { max: 8, fetch_types: false, onnotice: () => undefined });
      contenders.push({ name: `PostgreSQL ${route} (postgres.js)`, store: resolveLeaseStore(sql, { store: 'postgres' }), close: () => sql.end({ timeout: 1 }) });
    }
    // Warm up: connections open, statements planned once.
    for (const { store } of contenders) for (let i = 0; i < 200; i++) await store.acquire(`warm:${randomUUID()}`, 'owner', TTL_MS);

    const results = new Map<string, { win: Sample[]; lose: Sample[]; cycle: Sample[]; tp: number[] }>();
    for (const c of contenders) results.set(c.name, { win: [], lose: [], cycle: [], tp: [] });
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round so no store always runs first (or last) on a busy machine.
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
      for (const { name, store } of order) {
        const run = `r${round}:${randomUUID()}`;
        const r = results.get(name)!;
        r.win.push(await sequential((i) => store.acquire(`${run}:win:${i}`, 'owner', TTL_MS)));
        await store.acquire(`${run}:held`, 'holder', 600_000);
        r.lose.push(await sequential(() => store.acquire(`${run}:held`, 'other', TTL_MS)));
        r.cycle.push(
          await sequential(async (i) => {
            const key = `${run}:cycle:${i}`;
            await store.acquire(key, 'owner', TTL_MS);
            await store.extend(key, 'owner', TTL_MS);
            await store.release(key, 'owner');
          }),
        );
        r.tp.push(await throughput(store, run));
      }
    }

    const summary = (samples: Sample[]) => ({ p50: median(samples.map((s) => s.p50)), p99: median(samples.map((s) => s.p99)), perSecond: median(samples.map((s) => s.perSecond)) });
    const redisName = contenders[0]!.name;
    const base = results.get(redisName)!;
    const baseWin = summary(base.win);
    const baseTp = median(base.tp);
    const lines = [
      `Lease stores, ${ROUNDS} interleaved rounds (medians); sequential ops: ${SEQUENTIAL_CALLS} per round; throughput: ${CONCURRENCY} callers for ${THROUGHPUT_MS} ms; ttl ${TTL_MS} ms; PgBouncer pool 4, client pools 8.`,
      '',
      '| store | winning claim p50 / p99 (ms) | claims/s, 1 caller | losing claim p50 (ms) | acquire+extend+release p50 (ms) | claims/s, 32 callers | winning-claim latency vs Redis | throughput vs Redis |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ];
    for (const { name } of contenders) {
      const r = results.get(name)!;
      const win = summary(r.win);
      const tp = median(r.tp);
      lines.push(
        `| ${name} | ${fmt(win.p50, 3)} / ${fmt(win.p99, 3)} | ${fmt(win.perSecond, 0)} | ${fmt(summary(r.lose).p50, 3)} | ${fmt(summary(r.cycle).p50, 3)} | ${fmt(tp, 0)} | ${fmt(win.p50 / baseWin.p50)}x | ${fmt(tp / baseTp)}x |`,
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
