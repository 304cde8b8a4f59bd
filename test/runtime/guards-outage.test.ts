// Fail closed: a configured but down, paused or vanished Redis makes claims return false within
// timeoutMs (never run on every pod, never hang on an offline queue), and the guards recover when
// Redis returns. Each store gets its own redis-server so it can be stopped.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createGuards,
  claimOnce,
  claimPeriod,
  runExclusive,
  setLeaseClient,
  LeaseLostError,
  BackendTimeoutError,
  ReplicaGuardError,
  type SkipEvent,
} from '../../src/index.js';
import { eventually, sleep, timed } from '../harness/timing.js';
import { removeDir, startRedis, type RunningRedis } from '../harness/servers.js';
import { redisStoreFactories, type ConnectedLeaseClient } from './stores.js';

const TIMEOUT_MS = 500;
describe.each(redisStoreFactories)('outages ($name)', (factory) => {
  const prefix = `guards-outage:${randomUUID()}:`;
  let redis: RunningRedis;
  let connected: ConnectedLeaseClient;
  let admin: Redis;
  const skips: SkipEvent[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    connected = await factory.connect(redis.url);
    admin = new Redis(redis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    admin.on('error', () => undefined);
    await admin.connect();
    setLeaseClient(connected.client, {
      ...connected.options,
      prefix,
      timeoutMs: TIMEOUT_MS,
      logger: {},
      onSkip: (event) => skips.push(event),
    });
  });
  afterAll(async () => {
    setLeaseClient(null, { logger: {} });
    await connected?.close();
    admin?.disconnect();
    await redis?.stop();
    if (redis) removeDir(redis);
  });

  test('Redis stopped: claims return false within timeoutMs, then recover when Redis is back', async () => {
    expect(await claimOnce('before-outage', 60_000)).toBe(true);
    skips.length = 0;
    await redis.stop();

    const period = await timed(() => claimPeriod('sweep', 60_000));
    expect(period.value).toBe(false);
    expect(period.ms).toBeLessThan(TIMEOUT_MS + 400);
    const once = await timed(() => claimOnce('during-outage', 60_000));
    expect(once.value).toBe(false);
    expect(once.ms).toBeLessThan(TIMEOUT_MS + 400);
    const exclusive = await runExclusive('job', 5000, async () => 'ran');
    expect(exclusive).toEqual({ ran: false, leaseLost: false, reason: 'backend-unavailable' });

    expect(skips.map((s) => [s.guard, s.key, s.reason])).toEqual([
      ['claimPeriod', 'sweep', 'backend-unavailable'],
      ['claimOnce', 'during-outage', 'backend-unavailable'],
      ['runExclusive', 'job', 'backend-unavailable'],
    ]);
    expect(skips.every((s) => s.error instanceof ReplicaGuardError)).toBe(true);

    await redis.restart();
    await admin.connect().catch(() => undefined);
    await eventually('claims succeed again', () => claimOnce(`after-outage:${randomUUID()}`, 60_000));
    // Nothing parked in an offline queue ran after Redis came back: the outage claim never landed.
    await sleep(300);
    expect(await admin.get(`${prefix}during-outage`)).toBeNull();
    expect(await claimOnce('during-outage', 60_000)).toBe(true);
  });

  test('Redis too slow (CLIENT PAUSE): the claim fails closed, and the SET that lands late is given back', async () => {
    const pause = admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
    await pause;
    const slow = await timed(() => claimOnce('slow', 60_000));
    expect(slow.value).toBe(false);
    expect(slow.ms).toBeLessThan(TIMEOUT_MS + 400);
    expect(skips.at(-1)).toMatchObject({ guard: 'claimOnce', key: 'slow', reason: 'backend-unavailable' });
    expect(skips.at(-1)?.error).toBeInstanceOf(BackendTimeoutError);
    // The paused SET executes when the pause ends; the guard already said "skipped", so it
    // deletes its own late claim (compare-and-delete) instead of blocking the key for everyone.
    await eventually('the late claim is released', async () => (await admin.get(`${prefix}slow`)) === null, 5000);
    expect(await claimOnce('slow', 60_000)).toBe(true);
  });

  test('a holder cut off from Redis (CLIENT PAUSE) aborts a fifth of the ttl before its lease can expire, even with ttl < 1.5 × timeoutMs', async () => {
    // timeoutMs 2000 and a 1000 ms lease: before, the renewal's own timeout ran to the very expiry.
    const guards = createGuards({ client: connected.client, ...connected.options, prefix, logger: {}, timeoutMs: 2000 });
    const ttlMs = 1000;
    for (let trial = 0; trial < 2; trial++) {
      const startedAt = performance.now();
      let abortedAt = 0;
      const result = await guards.runExclusive(`partitioned-${trial}`, ttlMs, async (signal) => {
        signal.addEventListener('abort', () => (abortedAt = performance.now()));
        await sleep(50);
        // Every command stalls from now on, the first renewal (at ttl/3) included.
        await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      });
      expect(result.leaseLost).toBe(true);
      const abortAfter = abortedAt - startedAt;
      // Not before the renewal had its chance, and due at 4/5 of the ttl: strictly before the
      // earliest expiry even with 150 ms of timer lag on a loaded machine (before: at the expiry).
      expect(abortAfter).toBeGreaterThan(ttlMs * 0.6);
      expect(abortAfter).toBeLessThan(ttlMs * 0.8 + 150);
      // Blocks until the pause is over (the release above already waited most of it).
      await admin.ping();
    }
  });

  test('fifty claims waiting for a reconnect add one "ready" listener, not fifty (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    await redis.stop();
    try {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => claimOnce(`reconnect-${i}`, 60_000)));
      expect(results.every((r) => r === false)).toBe(true);
      await sleep(50);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      const client = connected.client as { listenerCount(event: string): number };
      expect(client.listenerCount('ready')).toBeLessThanOrEqual(1);
    } finally {
      process.off('warning', onWarning);
      await redis.restart();
      await admin.connect().catch(() => undefined);
      await eventually('claims succeed again', () => claimOnce(`after-reconnect:${randomUUID()}`, 60_000));
    }
  });

  test('after SCRIPT FLUSH (a restart or failover empties the script cache) renewal and release fall back to EVAL', async () => {
    expect((await runExclusive('warm-up', 300, async () => 'loaded')).ran).toBe(true);
    await admin.script('FLUSH');
    const result = await runExclusive('after-flush', 300, async () => {
      await sleep(700);
      return 'renewed';
    });
    expect(result).toEqual({ ran: true, value: 'renewed', leaseLost: false, fencingToken: expect.any(Number) });
    expect(await admin.get(`${prefix}after-flush`)).toBeNull();
  });

  test('Redis stops under a running runExclusive: the signal aborts, no unhandled rejection, fn finishes', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let reason: unknown;
      const result = await runExclusive('long-job', 600, async (signal) => {
        await sleep(100);
        await redis.stop();
        // The renewal may already have failed while the server was shutting down.
        if (!signal.aborted) {
          await new Promise<void>((resolve) => {
            const giveUp = setTimeout(resolve, 5000);
            signal.addEventListener('abort', () => {
              clearTimeout(giveUp);
              resolve();
            });
          });
        }
        reason = signal.reason;
        return 'stopped early';
      });
      expect(result).toEqual({ ran: true, value: 'stopped early', leaseLost: true, fencingToken: expect.any(Number) });
      expect(reason).toBeInstanceOf(LeaseLostError);
      await sleep(200);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await redis.restart();
    }
  });
});
