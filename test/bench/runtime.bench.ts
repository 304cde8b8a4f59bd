// Runtime guard benchmark (a script, not a test): `npm run bench:runtime`. Starts its own
// redis-server and measures, through the SAME client in the SAME run, claimPeriod against a raw
// `SET key value NX PX` — latency, round trips per call (INFO commandstats), throughput with 50
// concurrent callers — and runExclusive's renewal traffic. Then, with ioredis: runExclusive's CPU
// per acquisition and release against redis-semaphore's Mutex and the two-round-trip floor, a
// fenced against an unfenced acquisition, and claimPeriod with metrics/onEvent on against off.
// Prints ratios measured side by side in one run.
//
// Each part (ioredis, node-redis, leases) runs in a process of its own against the one
// redis-server: a service loads one Redis client library, and a guard whose code had already
// been optimised for the first client would be measured against the second client's raw command
// with polymorphic call sites the raw side never has.
import { Redis } from 'ioredis';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { Mutex } from 'redis-semaphore';
import { createClient } from 'redis';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Guards, LeaseStore } from '../../src/index.js';
import { removeDir, startRedis } from '../harness/servers.js';
import { ioredisCommands } from '../../src/lease/clients/ioredis-commands.js';
import { createRedisLeaseStore } from '../../src/lease/redis-store.js';

// Measures what services run: the BUILT runtime (dist/index.js, built first), not the sources
// through tsx (whose transform adds a helper call per named closure).
const root = fileURLToPath(new URL('../../', import.meta.url));
const PART_ENV = 'REPLICA_GUARD_BENCH_PART';
const part = process.env[PART_ENV];
if (part === undefined) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'ignore' });
const distEntry = new URL('../../dist/index.js', import.meta.url).href;
const { claimPeriod, createGuards, runExclusive, setLeaseClient } = (await import(distEntry)) as typeof import('../../src/index.js');

const SEQUENTIAL_CALLS = 8000;
const ROUNDS = 16;
const WARM_UP_CALLS = 2000;
const CONCURRENCY = 50;
const THROUGHPUT_MS = 8000;
const THROUGHPUT_ROUNDS = 16;
const RENEWAL_TTL_MS = 1500;
const RENEWAL_RUN_MS = 9750;

const CLIENT_COMMANDS = new Set(['set', 'evalsha', 'eval']);

interface Family {
  name: string;
  rawSet(key: string, value: string): Promise<unknown>;
  client: object;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function commandCounts(admin: Redis): Promise<Map<string, number>> {
  const info = await admin.info('commandstats');
  const counts = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts.set(match[1]!, Number(match[2]));
  return counts;
}

/** Commands the server ran between two snapshots, excluding the INFO calls themselves. */
function commandsBetween(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [name, calls] of after) {
    if (name === 'info') continue;
    const d = calls - (before.get(name) ?? 0);
    if (d > 0) delta.set(name, d);
  }
  return delta;
}

async function latencies(op: (i: number) => Promise<unknown>, from: number, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = from; i < from + count; i++) {
    const start = performance.now();
    await op(i);
    out.push(performance.now() - start);
  }
  return out;
}

/** Calls completed by CONCURRENCY callers in a loop for `ms`, and the client CPU they used (µs). */
async function throughput(op: (i: number) => Promise<unknown>, ms: number, from: number): Promise<{ done: number; cpuUs: number }> {
  let done = 0;
  let next = from;
  const end = performance.now() + ms;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await op(next++);
        done += 1;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { done, cpuUs: used.user + used.system };
}

/**
 * Alternates the two sides in short rounds (and which goes first) so load changes on the machine
 * hit both equally; returns both rates, the rate ratio a/b of every round, and of every round the
 * ratio of client CPU per call (which a busy host disturbs less than the rate).
 */
async function throughputSideBySide(
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
): Promise<{ rates: [number, number]; rounds: number[]; cpuRounds: number[] }> {
  const roundMs = THROUGHPUT_MS / THROUGHPUT_ROUNDS;
  let doneA = 0;
  let doneB = 0;
  const rounds: number[] = [];
  const cpuRounds: number[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    const from = 3e9 + round * 1e6;
    let roundA: { done: number; cpuUs: number };
    let roundB: { done: number; cpuUs: number };
    if (round % 2 === 0) {
      roundA = await throughput(a, roundMs, from);
      roundB = await throughput(b, roundMs, from);
    } else {
      roundB = await throughput(b, roundMs, from);
      roundA = await throughput(a, roundMs, from);
    }
    doneA += roundA.done;
    doneB += roundB.done;
    rounds.push(roundA.done / roundB.done);
    cpuRounds.push(roundA.cpuUs / roundA.done / (roundB.cpuUs / roundB.done));
  }
  return { rates: [doneA / (THROUGHPUT_MS / 1000), doneB / (THROUGHPUT_MS / 1000)], rounds, cpuRounds };
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((x, y) => x - y),
    50,
  );
/** Every round's ratio: the median of rounds, the middle half and the whole spread, then each round in order. */
const showRounds = (ratios: number[]) => {
  const sorted = [...ratios].sort((x, y) => x - y);
  return `median of rounds ${fmt(median(ratios), 2)}x (middle half ${fmt(percentile(sorted, 25), 2)}–${fmt(percentile(sorted, 75), 2)}x, all ${fmt(sorted[0]!, 2)}–${fmt(sorted.at(-1)!, 2)}x); rounds ${ratios.map((r) => fmt(r, 2)).join(' ')}`;
};

async function benchFamily(family: Family, admin: Redis, runId: string): Promise<void> {
  setLeaseClient(family.client, { prefix: `bench:${runId}:${family.name}:g:`, logger: {} });
  // The raw side is the hand-written claim of a period that claimPeriod replaces, sent through the
  // same client: the same key shape (a prefix of the same length, the job, the window computed
  // from the clock on every call) and a value of the owner token's shape (a 16-character
  // per-process nonce and a counter), so the two sides send the same bytes and differ only by
  // the guard's own work.
  const rawNonce = randomBytes(12).toString('base64url');
  let rawCount = 0;
  const rawKey = (i: number) => `bench:${runId}:${family.name}:r:job-${i}:${Math.floor(Date.now() / 60_000)}`;
  const claim = (i: number) => claimPeriod(`job-${i}`, 60_000);
  const raw = (i: number) => family.rawSet(rawKey(i), rawNonce + ++rawCount);

  // Warm up both paths in turn (connections, JIT): without it the first round's first side pays.
  for (let i = 0; i < 4; i++) {
    await latencies(claim, 1e9 + i * 1e6, WARM_UP_CALLS / 4);
    await latencies(raw, 1e9 + i * 1e6, WARM_UP_CALLS / 4);
  }

  // Latency, interleaved in rounds (each side going first in turn) so drift hits both sides equally.
  const claimMs: number[] = [];
  const rawMs: number[] = [];
  const p50Rounds: number[] = [];
  const perRound = SEQUENTIAL_CALLS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    let claimRound: number[];
    let rawRound: number[];
    if (round % 2 === 0) {
      claimRound = await latencies(claim, round * perRound, perRound);
      rawRound = await latencies(raw, round * perRound, perRound);
    } else {
      rawRound = await latencies(raw, round * perRound, perRound);
      claimRound = await latencies(claim, round * perRound, perRound);
    }
    p50Rounds.push(median(claimRound) / median(rawRound));
    claimMs.push(...claimRound);
    rawMs.push(...rawRound);
  }
  claimMs.sort((a, b) => a - b);
  rawMs.sort((a, b) => a - b);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  // Round trips per call, counted by the server.
  const before = await commandCounts(admin);
  await latencies(claim, 2e9, 1000);
  const claimCommands = commandsBetween(before, await commandCounts(admin));
  const rawBefore = await commandCounts(admin);
  await latencies(raw, 2e9, 1000);
  const rawCommands = commandsBetween(rawBefore, await commandCounts(admin));
  // Round trips are the commands a client sends; commandstats also counts the commands a Lua
  // script runs inside the server (GET, PEXPIRE, DEL), which cost no round trip.
  const total = (m: Map<string, number>) => [...m].filter(([c]) => CLIENT_COMMANDS.has(c)).reduce((a, [, n]) => a + n, 0);

  // Throughput with 50 concurrent callers.
  const {
    rates: [claimRate, rawRate],
    rounds: rateRounds,
    cpuRounds: rateCpuRounds,
  } = await throughputSideBySide(claim, raw);

  // runExclusive renewal traffic: one compare-and-extend per ttl/3 (scripts loaded beforehand,
  // so no NOSCRIPT fallback is counted).
  await runExclusive('renewal-warm-up', 300, () => sleep(150));
  const renewBefore = await commandCounts(admin);
  await runExclusive('renewal-probe', RENEWAL_TTL_MS, () => sleep(RENEWAL_RUN_MS));
  const renewCommands = commandsBetween(renewBefore, await commandCounts(admin));
  const renewals = (renewCommands.get('evalsha') ?? 0) - 1; // minus the compare-and-delete release
  const renewalsPerMinute = (renewals / RENEWAL_RUN_MS) * 60_000;

  console.log(`\n## ${family.name}`);
  console.log(`latency (${SEQUENTIAL_CALLS} sequential calls each, interleaved in ${ROUNDS} rounds)`);
  console.log(
    `  claimPeriod  mean ${fmt(mean(claimMs) * 1000, 0)} µs  p50 ${fmt(percentile(claimMs, 50) * 1000, 0)} µs  p99 ${fmt(percentile(claimMs, 99) * 1000, 0)} µs`,
  );
  console.log(
    `  raw SET NX PX mean ${fmt(mean(rawMs) * 1000, 0)} µs  p50 ${fmt(percentile(rawMs, 50) * 1000, 0)} µs  p99 ${fmt(percentile(rawMs, 99) * 1000, 0)} µs`,
  );
  console.log(
    `  ratio claimPeriod / raw: mean ${fmt(mean(claimMs) / mean(rawMs), 2)}x  p50 ${fmt(percentile(claimMs, 50) / percentile(rawMs, 50), 2)}x  p99 ${fmt(percentile(claimMs, 99) / percentile(rawMs, 99), 2)}x`,
  );
  console.log(`  p50 ratio per round: ${showRounds(p50Rounds)}`);
  console.log(`round trips per call (server INFO commandstats over 1000 calls)`);
  console.log(
    `  claimPeriod ${fmt(total(claimCommands) / 1000, 2)} (${[...claimCommands].map(([c, n]) => `${c}=${n}`).join(' ')})  raw ${fmt(total(rawCommands) / 1000, 2)}  ratio ${fmt(total(claimCommands) / total(rawCommands), 2)}x`,
  );
  console.log(`throughput, ${CONCURRENCY} concurrent callers, ${THROUGHPUT_MS} ms per side in ${THROUGHPUT_ROUNDS} alternating rounds`);
  console.log(`  claimPeriod ${fmt(claimRate, 0)}/s  raw ${fmt(rawRate, 0)}/s  ratio ${fmt(claimRate / rawRate, 2)}x`);
  console.log(`  ratio per round: ${showRounds(rateRounds)}`);
  console.log(`  client CPU per call at ${CONCURRENCY} callers, claimPeriod / raw, per round: ${showRounds(rateCpuRounds)}`);
  console.log(`client CPU per call, sequential, side by side (won claims, and claims of a key held elsewhere)`);
  // Every replica but one gets "held elsewhere": the same key claimed again, against a SET NX of a key that exists.
  await claimPeriod('held', 60_000);
  await family.rawSet(rawKey(-1), rawNonce);
  const cpu = await sideBySide([
    { name: 'raw SET NX PX', op: raw },
    { name: 'claimPeriod', op: claim },
    { name: 'raw SET NX PX, key exists', op: () => family.rawSet(rawKey(-1), rawNonce + ++rawCount) },
    { name: 'claimPeriod, held elsewhere', op: () => claimPeriod('held', 60_000) },
  ]);
  const cpuRatio = (a: string, b: string) => {
    const ratios = cpu.get(a)!.rounds.map((us, round) => us / cpu.get(b)!.rounds[round]!);
    return `${fmt(cpu.get(a)!.cpu, 1)} µs  raw ${fmt(cpu.get(b)!.cpu, 1)} µs  ratio ${fmt(cpu.get(a)!.cpu / cpu.get(b)!.cpu, 2)}x (per round: ${showRounds(ratios)})`;
  };
  console.log(`  claimPeriod ${cpuRatio('claimPeriod', 'raw SET NX PX')}`);
  console.log(`  held elsewhere ${cpuRatio('claimPeriod, held elsewhere', 'raw SET NX PX, key exists')}`);
  console.log(`runExclusive renewal (ttl ${RENEWAL_TTL_MS} ms, fn holds it ${RENEWAL_RUN_MS} ms)`);
  console.log(
    `  ${renewals} compare-and-extend round trips = ${fmt(renewalsPerMinute, 0)}/min (expected 60000 / (ttl/3) = ${fmt(60_000 / (RENEWAL_TTL_MS / 3), 0)}/min); round trips for the whole run ${total(renewCommands)}; server-side commands: ${[...renewCommands].map(([c, n]) => `${c}=${n}`).join(' ')}`,
  );
}

const CPU_CALLS = 6000;
const CPU_ROUNDS = 16;

/** Sequential calls; returns the client CPU (user + system) per call in µs and the latencies in ms. */
async function cpuAndLatency(op: (i: number) => Promise<unknown>, from: number, count: number): Promise<{ cpuUs: number; ms: number[] }> {
  const ms: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = from; i < from + count; i++) {
    const start = performance.now();
    await op(i);
    ms.push(performance.now() - start);
  }
  const used = process.cpuUsage(cpu);
  return { cpuUs: used.user + used.system, ms };
}

interface Side {
  name: string;
  op: (i: number) => Promise<unknown>;
}

interface SideResult {
  /** CPU µs per call over all rounds. */
  cpu: number;
  p50: number;
  mean: number;
  /** CPU µs per call in each round. */
  rounds: number[];
}

/** Runs every side in CPU_ROUNDS interleaved rounds; per side: CPU µs per call (overall and per round), p50 and mean latency in µs. */
async function sideBySide(sides: Side[], warmUp = 300): Promise<Map<string, SideResult>> {
  for (const side of sides) await cpuAndLatency(side.op, 8e9, warmUp);
  const totals = new Map(sides.map((side) => [side.name, { cpuUs: 0, ms: [] as number[], rounds: [] as number[] }]));
  const perRound = CPU_CALLS / CPU_ROUNDS;
  for (let round = 0; round < CPU_ROUNDS; round++) {
    // Alternate the order too, so no side always runs right after another's GC debt.
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const { cpuUs, ms } = await cpuAndLatency(side.op, 4e9 + round * 1e6, perRound);
      const total = totals.get(side.name)!;
      total.cpuUs += cpuUs;
      total.ms.push(...ms);
      total.rounds.push(cpuUs / perRound);
    }
  }
  const out = new Map<string, SideResult>();
  for (const [name, { cpuUs, ms, rounds }] of totals) {
    ms.sort((a, b) => a - b);
    out.set(name, {
      cpu: cpuUs / CPU_CALLS,
      p50: percentile(ms, 50) * 1000,
      mean: (ms.reduce((a, b) => a + b, 0) / ms.length) * 1000,
      rounds,
    });
  }
  return out;
}

function printSides(title: string, results: Map<string, SideResult>, base: string): void {
  console.log(title);
  const reference = results.get(base)!;
  for (const [name, r] of results) {
    console.log(
      `  ${name.padEnd(42)} CPU ${fmt(r.cpu, 1)} µs/call (${fmt(r.cpu / reference.cpu, 2)}x)  p50 ${fmt(r.p50, 0)} µs (${fmt(r.p50 / reference.p50, 2)}x)  mean ${fmt(r.mean, 0)} µs`,
    );
  }
}

/** runExclusive vs redis-semaphore vs the floor; fenced vs unfenced; metrics on vs off (ioredis). */
async function benchLeases(url: string, runId: string): Promise<void> {
  const io = new Redis(url);
  const prefix = `bench:${runId}:leases:`;
  const noop = () => undefined;
  const guards = createGuards({ client: io, prefix, logger: {} });
  const releaseSha = (await io.script(
    'LOAD',
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
  )) as string;
  // Fenced against unfenced acquisition: the same Redis store object twice, once without
  // acquireFenced (as a custom LeaseStore would be): one script (SET NX PX + token) against SET NX PX.
  const redisStore = createRedisLeaseStore(ioredisCommands(io));
  const fencedGuards = createGuards({ client: { ...redisStore }, prefix, logger: {} });
  const unfencedStore: LeaseStore = { ...redisStore, acquireFenced: undefined };
  const unfenced = createGuards({ client: unfencedStore, prefix, logger: {} });
  try {
    const leases = await sideBySide([
      {
        name: 'two round trips (SET NX PX + EVALSHA del)',
        op: async (i) => {
          const key = `${prefix}floor:${i}`;
          await io.set(key, 'owner-token-12345', 'PX', 10_000, 'NX');
          await io.evalsha(releaseSha, 1, key, 'owner-token-12345');
        },
      },
      {
        name: 'redis-semaphore Mutex acquire + release',
        op: async (i) => {
          const mutex = new Mutex(io, `${prefix}mutex:${i}`, { lockTimeout: 10_000, acquireAttemptsLimit: 1, refreshInterval: 3333 });
          await mutex.acquire();
          await mutex.release();
        },
      },
      { name: 'runExclusive(key, 10_000, noop), fenced', op: (i) => guards.runExclusive(`rx:${i}`, 10_000, noop) },
      { name: 'runExclusive, same store, fenced', op: (i) => fencedGuards.runExclusive(`rx-fenced:${i}`, 10_000, noop) },
      { name: 'runExclusive, same store, unfenced', op: (i) => unfenced.runExclusive(`rx-unfenced:${i}`, 10_000, noop) },
    ]);
    console.log(`\n## leases (ioredis, ${CPU_CALLS} sequential acquire + release each, ${CPU_ROUNDS} interleaved rounds)`);
    printSides('runExclusive against redis-semaphore and the two-round-trip floor', leases, 'two round trips (SET NX PX + EVALSHA del)');
    const rx = leases.get('runExclusive(key, 10_000, noop), fenced')!;
    const mutex = leases.get('redis-semaphore Mutex acquire + release')!;
    const plain = leases.get('runExclusive, same store, unfenced')!;
    const fencedSame = leases.get('runExclusive, same store, fenced')!;
    console.log(`  runExclusive / Mutex CPU per acquisition+release: ${fmt(rx.cpu / mutex.cpu, 2)}x; p50 ${fmt(rx.p50 / mutex.p50, 2)}x`);
    console.log(
      `  fenced / unfenced acquisition (same store object): CPU ${fmt(fencedSame.cpu / plain.cpu, 2)}x, p50 ${fmt(fencedSame.p50 / plain.p50, 2)}x (same round trips: one script instead of SET)`,
    );

    // Metrics and events: the cost of an observed claim against an unobserved one.
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const plainGuards: Guards = createGuards({ client: io, prefix: `${prefix}off:`, logger: {} });
    const withMetrics: Guards = createGuards({ client: io, prefix: `${prefix}metrics:`, logger: {}, metrics: { meterProvider: provider } });
    let events = 0;
    const withEvents: Guards = createGuards({ client: io, prefix: `${prefix}events:`, logger: {}, onEvent: () => void (events += 1) });
    const observed = await sideBySide([
      { name: 'claimPeriod, no metrics, no onEvent', op: (i) => plainGuards.claimPeriod(`job-${i}`, 60_000) },
      { name: 'claimPeriod, OpenTelemetry metrics', op: (i) => withMetrics.claimPeriod(`job-${i}`, 60_000) },
      { name: 'claimPeriod, onEvent', op: (i) => withEvents.claimPeriod(`job-${i}`, 60_000) },
    ]);
    printSides('\nmetrics on vs off (claimPeriod, every call a won claim)', observed, 'claimPeriod, no metrics, no onEvent');
    await provider.shutdown();
    if (events === 0) throw new Error('onEvent never ran');
  } finally {
    io.disconnect();
  }
}

/** One part of the benchmark, in this process, against the redis-server at `url`. */
async function runPart(name: string, url: string, runId: string): Promise<void> {
  if (name === 'leases') {
    await benchLeases(url, runId);
    return;
  }
  const admin = new Redis(url);
  try {
    if (name === 'ioredis') {
      const io = new Redis(url);
      await benchFamily({ name, client: io, rawSet: (key, value) => io.set(key, value, 'PX', 60_000, 'NX') }, admin, runId);
      io.disconnect();
    } else {
      const nodeRedis = createClient({ url });
      nodeRedis.on('error', () => undefined);
      await nodeRedis.connect();
      await benchFamily(
        { name, client: nodeRedis, rawSet: (key, value) => nodeRedis.set(key, value, { NX: true, PX: 60_000 }) },
        admin,
        runId,
      );
      nodeRedis.destroy();
    }
  } finally {
    setLeaseClient(null, { logger: {} });
    admin.disconnect();
  }
}

async function main(): Promise<void> {
  if (part !== undefined) {
    await runPart(part, process.env.REPLICA_GUARD_BENCH_URL!, process.env.REPLICA_GUARD_BENCH_RUN!);
    return;
  }
  const server = await startRedis();
  const runId = Date.now().toString(36);
  try {
    console.log(`replica-guard runtime benchmark — redis-server on ${server.url}, node ${process.version}`);
    for (const name of ['ioredis', 'node-redis', 'leases']) {
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
        stdio: 'inherit',
        env: { ...process.env, [PART_ENV]: name, REPLICA_GUARD_BENCH_URL: server.url, REPLICA_GUARD_BENCH_RUN: runId },
      });
      if (child.status !== 0) throw new Error(`the ${name} part failed (exit ${child.status ?? child.signal})`);
    }
  } finally {
    await server.stop();
    removeDir(server);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
