// Fail closed: a configured but down, paused or vanished Redis makes claims return false within
// timeoutMs (never run on every pod, never hang on an offline queue), and the guards recover when
// Redis returns. Each store gets its own redis-server so it can be stopped.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
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
