// Runtime guard benchmark (a script, not a test): `npm run bench:runtime`. Starts its own
// redis-server and measures, through the SAME client in the SAME run, claimPeriod against a raw
// `SET key value NX PX` — latency, round trips per call (INFO commandstats), throughput with 50
// concurrent callers — and runExclusive's renewal traffic. Prints ratios.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { claimPeriod, runExclusive, setLeaseClient } from '../../src/index.js';
import { removeDir, startRedis } from '../harness/servers.js';

const SEQUENTIAL_CALLS = 4000;
const ROUNDS = 8;
const CONCURRENCY = 50;
const THROUGHPUT_MS = 4000;
const THROUGHPUT_ROUNDS = 8;
const RENEWAL_TTL_MS = 1500;
const RENEWAL_RUN_MS = 9750;

const CLIENT_COMMANDS = new Set(['set', 'evalsha', 'eval']);

interface Family {
  name: string;
  rawSet(key: string): Promise<unknown>;
  client: object;
  close(): Promise<void>;
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

/** Operations per second with CONCURRENCY callers in a loop for `ms`. */
async function throughput(op: (i: number) => Promise<unknown>, ms: number, from: number): Promise<number> {
  let done = 0;
  let next = from;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await op(next++);
        done += 1;
      }
    }),
  );
  return done;
}

/** Alternates the two sides in short rounds so load changes on the machine hit both equally. */
async function throughputSideBySide(a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>): Promise<[number, number]> {
  const roundMs = THROUGHPUT_MS / THROUGHPUT_ROUNDS;
  let doneA = 0;
  let doneB = 0;
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    doneA += await throughput(a, roundMs, 3e9 + round * 1e6);
    doneB += await throughput(b, roundMs, 3e9 + round * 1e6);
  }
  return [doneA / (THROUGHPUT_MS / 1000), doneB / (THROUGHPUT_MS / 1000)];
}

async function benchFamily(family: Family, admin: Redis, runId: string): Promise<void> {
  setLeaseClient(family.client, { prefix: `bench:${runId}:${family.name}:guard:`, logger: {} });
  const rawKey = (i: number) => `bench:${runId}:${family.name}:raw:${i}`;
  const claim = (i: number) => claimPeriod(`job-${i}`, 60_000);
  const raw = (i: number) => family.rawSet(rawKey(i));

  // Warm up both paths (connections, script cache, JIT).
  await latencies(claim, 1e9, 500);
  await latencies(raw, 1e9, 500);

  // Latency, interleaved in rounds so drift hits both sides equally.
  const claimMs: number[] = [];
  const rawMs: number[] = [];
  const perRound = SEQUENTIAL_CALLS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    claimMs.push(...(await latencies(claim, round * perRound, perRound)));
    rawMs.push(...(await latencies(raw, round * perRound, perRound)));
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
  const [claimRate, rawRate] = await throughputSideBySide(claim, raw);

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
  console.log(`round trips per call (server INFO commandstats over 1000 calls)`);
  console.log(
    `  claimPeriod ${fmt(total(claimCommands) / 1000, 2)} (${[...claimCommands].map(([c, n]) => `${c}=${n}`).join(' ')})  raw ${fmt(total(rawCommands) / 1000, 2)}  ratio ${fmt(total(claimCommands) / total(rawCommands), 2)}x`,
  );
  console.log(`throughput, ${CONCURRENCY} concurrent callers, ${THROUGHPUT_MS} ms per side in ${THROUGHPUT_ROUNDS} alternating rounds`);
  console.log(`  claimPeriod ${fmt(claimRate, 0)}/s  raw ${fmt(rawRate, 0)}/s  ratio ${fmt(claimRate / rawRate, 2)}x`);
  console.log(`runExclusive renewal (ttl ${RENEWAL_TTL_MS} ms, fn holds it ${RENEWAL_RUN_MS} ms)`);
  console.log(
    `  ${renewals} compare-and-extend round trips = ${fmt(renewalsPerMinute, 0)}/min (expected 60000 / (ttl/3) = ${fmt(60_000 / (RENEWAL_TTL_MS / 3), 0)}/min); round trips for the whole run ${total(renewCommands)}; server-side commands: ${[...renewCommands].map(([c, n]) => `${c}=${n}`).join(' ')}`,
  );
}

async function main(): Promise<void> {
  const server = await startRedis();
  const admin = new Redis(server.url);
  const runId = Date.now().toString(36);
  try {
    console.log(`replica-guard runtime benchmark — redis-server on ${server.url}, node ${process.version}`);
    const io = new Redis(server.url);
    await benchFamily(
      { name: 'ioredis', client: io, rawSet: (key) => io.set(key, 'x', 'PX', 60_000, 'NX'), close: async () => io.disconnect() },
      admin,
      runId,
    );
    io.disconnect();
    const nodeRedis = createClient({ url: server.url });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    await benchFamily(
      {
        name: 'node-redis',
        client: nodeRedis,
        rawSet: (key) => nodeRedis.set(key, 'x', { NX: true, PX: 60_000 }),
        close: async () => nodeRedis.destroy(),
      },
      admin,
      runId,
    );
    nodeRedis.destroy();
  } finally {
    setLeaseClient(null, { logger: {} });
    admin.disconnect();
    await server.stop();
    removeDir(server);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
