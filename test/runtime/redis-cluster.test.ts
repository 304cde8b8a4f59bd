// A real 3-master Redis Cluster on loopback, with ioredis's Cluster and node-redis's
// createCluster side by side: one winner per period however the keys spread over the slots, and
// every script (fenced acquire, renew, keep, release) runs in one slot — no CROSSSLOT, with or
// without a hash tag in the key or the prefix.
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGuards, periodKey, type Guards, type SkipEvent } from '../../src/index.js';
import { fenceKeyOf } from '../../src/lease/redis-store.js';
import { clusterSlot } from '../../src/lease/cluster-slot.js';
import { startRedisCluster, type RunningRedisCluster } from '../harness/servers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis Cluster (3 masters)', () => {
  let cluster: RunningRedisCluster;
  let io: Cluster;
  let nodeRedis: ReturnType<typeof createCluster>;
  const skips: SkipEvent[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    io = new Cluster(cluster.nodes);
    io.on('error', () => undefined);
    nodeRedis = createCluster({ rootNodes: cluster.nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })) });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    await new Promise<void>((resolve) => (io.status === 'ready' ? resolve() : io.once('ready', () => resolve())));
  });
  afterAll(async () => {
    io?.disconnect();
    if (nodeRedis?.isOpen) nodeRedis.destroy();
    await cluster?.stop();
  });

  const both = (prefix: string): [Guards, Guards] => [
    createGuards({ client: io, prefix, logger: {}, onSkip: (e) => skips.push(e) }),
    createGuards({ client: nodeRedis, prefix, logger: {}, onSkip: (e) => skips.push(e) }),
  ];

  test('ioredis and node-redis racing for 40 period keys spread over the slots: exactly one winner each', async () => {
    const [a, b] = both(`cluster:${randomUUID()}:`);
    const keys = Array.from({ length: 40 }, (_, i) => `job-${i}`);
    const wins = await Promise.all(
      keys.map(async (key) => {
        const results = await Promise.all([a, b, a, b].map((guards) => guards.claimPeriod(key, 60_000)));
        return results.filter(Boolean).length;
      }),
    );
    expect(wins).toEqual(keys.map(() => 1));
    const serverSlots = await Promise.all(keys.map((key) => io.cluster('KEYSLOT', key) as Promise<number>));
    expect(new Set(serverSlots).size).toBeGreaterThan(30);
    // The slot computation used to place fencing-token keys agrees with the server's.
    const odd = ['{}x', 'a}b', '{a}{b}', 'ü{é}', ...keys];
    expect(odd.map(clusterSlot)).toEqual(await Promise.all(odd.map((key) => io.cluster('KEYSLOT', key) as Promise<number>)));
    expect(skips.filter((s) => s.reason === 'backend-unavailable')).toEqual([]);
  });

  test.each([
    ['plain prefix and key', 'cluster-lease:', 'reindex'],
    ['hash tag in the prefix', '{tenant-7}:', 'reindex'],
    ['hash tag in the key', 'cluster-lease:', 'billing:{acct-9}:close'],
    ['empty braces (no hash tag)', 'cluster-lease:{}', 'close'],
  ])('runExclusive and runOnce with fencing tokens, renewals and release in one slot (%s)', async (_name, basePrefix, key) => {
    const prefix = `${basePrefix}${randomUUID()}:`;
    const [a, b] = both(prefix);
    const leaseKey = `${prefix}${key}`;
    expect(await io.cluster('KEYSLOT', fenceKeyOf(leaseKey))).toBe(await io.cluster('KEYSLOT', leaseKey));
    const tokens: number[] = [];
    for (const guards of [a, b, a]) {
      const result = await guards.runExclusive(key, 300, async (_signal, { fencingToken }) => {
        await sleep(250); // past ttl/3: at least one renewal
        return fencingToken;
      });
      expect(result).toMatchObject({ ran: true, leaseLost: false });
      tokens.push(result.value!);
    }
    expect(tokens[1]!).toBeGreaterThan(tokens[0]!);
    expect(tokens[2]!).toBeGreaterThan(tokens[1]!);
    expect(await io.get(leaseKey)).toBeNull();

    const periodMs = 60 * 60 * 1000;
    const once = periodKey(key, periodMs);
    expect((await b.runOnce(once, periodMs, () => 'ran', { leaseMs: 300 })).ran).toBe(true);
    expect((await a.runOnce(once, periodMs, () => 'again')).ran).toBe(false);
    expect(skips.filter((s) => s.reason === 'backend-unavailable')).toEqual([]);
  });
});
