// createGuards: guards bound to one store, side by side in one process (two redis-servers, two
// prefixes, an instance beside the process-wide default); and runExclusive waiting for a lease.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { claimOnce, createGuards, InvalidArgumentError, setLeaseClient, UnknownClientError, type SkipEvent } from '../../src/index.js';
import { removeDir, startRedis, type RunningRedis } from '../harness/servers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two instances on two Redis servers in one process', () => {
  let second: RunningRedis;
  let redisA: Redis;
  let redisB: Redis;
  const prefix = `instances:${randomUUID()}:`;

  beforeAll(async () => {
    second = await startRedis();
    redisA = new Redis(inject('redisUrl'));
    redisB = new Redis(second.url);
  });
  afterAll(async () => {
    setLeaseClient(null, { logger: {} });
    redisA?.disconnect();
    redisB?.disconnect();
    await second?.stop();
    if (second) removeDir(second);
  });

  test('each instance claims on its own server under its own prefix; the default instance is separate', async () => {
    const a = createGuards({ client: redisA, prefix: `${prefix}a:`, logger: {} });
    const b = createGuards({ client: redisB, prefix: `${prefix}b:`, logger: {} });
    expect(await a.claimOnce('invoice-1', 60_000)).toBe(true);
    expect(await b.claimOnce('invoice-1', 60_000)).toBe(true);
    expect(await a.claimOnce('invoice-1', 60_000)).toBe(false);
    expect(await b.claimOnce('invoice-1', 60_000)).toBe(false);
    expect(await redisA.get(`${prefix}a:invoice-1`)).not.toBeNull();
    expect(await redisA.get(`${prefix}b:invoice-1`)).toBeNull();
    expect(await redisB.get(`${prefix}b:invoice-1`)).not.toBeNull();
    expect(await redisB.get(`${prefix}a:invoice-1`)).toBeNull();

    // Two tenants on one server, one prefix each: independent.
    const tenant1 = createGuards({ client: redisA, prefix: `${prefix}tenant-1:`, logger: {} });
    const tenant2 = createGuards({ client: redisA, prefix: `${prefix}tenant-2:`, logger: {} });
    const [r1, r2] = await Promise.all([
      tenant1.runExclusive('nightly', 2000, () => 'tenant-1'),
      tenant2.runExclusive('nightly', 2000, () => 'tenant-2'),
    ]);
    expect([r1.value, r2.value]).toEqual(['tenant-1', 'tenant-2']);

    // The process-wide functions use the default instance (setLeaseClient), untouched by createGuards.
    setLeaseClient(redisB, { prefix: `${prefix}default:`, logger: {} });
    expect(await claimOnce('invoice-1', 60_000)).toBe(true);
    expect(await redisB.get(`${prefix}default:invoice-1`)).not.toBeNull();
    expect(await a.claimOnce('invoice-2', 60_000)).toBe(true);
    expect(await redisA.get(`${prefix}a:invoice-2`)).not.toBeNull();
  });

  test('an instance whose server stops fails closed while the other keeps working', async () => {
    const skips: SkipEvent[] = [];
    const a = createGuards({ client: redisA, prefix: `${prefix}a:`, logger: {} });
    const b = createGuards({ client: redisB, prefix: `${prefix}b:`, logger: {}, timeoutMs: 300, onSkip: (e) => skips.push(e) });
    redisB.on('error', () => undefined);
    await second.stop();
    try {
      expect(await b.claimOnce('while-down', 60_000)).toBe(false);
      expect(skips).toMatchObject([{ guard: 'claimOnce', key: 'while-down', reason: 'backend-unavailable' }]);
      expect(await a.claimOnce('while-down', 60_000)).toBe(true);
    } finally {
      await second.restart();
    }
  });
});

describe('runExclusive with waitMs', () => {
  let redis: Redis;
  const prefix = `waiting:${randomUUID()}:`;
  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });
  afterAll(() => redis?.disconnect());

  test('a waiting caller acquires right after the holder releases, and runs after it, not alongside', async () => {
    const holderGuards = createGuards({ client: redis, prefix, logger: {} });
    const waiterGuards = createGuards({ client: redis, prefix, logger: {} });
    const timeline: string[] = [];
    let releasedAt = 0;
    const holder = holderGuards
      .runExclusive('migrate-search', 5000, async () => {
        timeline.push('holder start');
        await sleep(600);
        timeline.push('holder end');
      })
      .then((result) => {
        releasedAt = performance.now();
        return result;
      });
    await sleep(50);
    const skipping = await waiterGuards.runExclusive('migrate-search', 5000, () => timeline.push('skipper ran'));
    expect(skipping).toEqual({ ran: false, leaseLost: false, reason: 'claimed-elsewhere' });
    let startedAt = 0;
    const waiter = await waiterGuards.runExclusive(
      'migrate-search',
      5000,
      (_signal, { fencingToken }) => {
        startedAt = performance.now();
        timeline.push('waiter ran');
        return fencingToken;
      },
      { waitMs: 5000, retryDelayMs: 20 },
    );
    const held = await holder;
    expect(timeline).toEqual(['holder start', 'holder end', 'waiter ran']);
    expect(waiter).toMatchObject({ ran: true, leaseLost: false });
    expect(waiter.fencingToken!).toBeGreaterThan(held.fencingToken!);
    // Picked up within a retry or two of the release, not at the end of the wait.
    expect(startedAt - releasedAt).toBeLessThan(300);
  });

  test('the wait ends: skipped as claimed-elsewhere, reported once', async () => {
    const skips: SkipEvent[] = [];
    const guards = createGuards({ client: redis, prefix, logger: {}, onSkip: (e) => skips.push(e) });
    const holder = guards.runExclusive('long', 3000, () => sleep(1000));
    await sleep(50);
    const started = performance.now();
    const waited = await guards.runExclusive('long', 3000, () => 'never', { waitMs: 300, retryDelayMs: 25 });
    const took = performance.now() - started;
    expect(waited).toEqual({ ran: false, leaseLost: false, reason: 'claimed-elsewhere' });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(900);
    expect(skips).toEqual([{ guard: 'runExclusive', key: 'long', reason: 'claimed-elsewhere' }]);
    await holder;
  });
});

describe('createGuards input', () => {
  test('bad options are refused by name', () => {
    expect(() => createGuards(null as never)).toThrow(/createGuards: options must be an object, got null/);
    expect(() => createGuards({ timeoutMs: 0 })).toThrow(/createGuards: options.timeoutMs must be a positive integer/);
    expect(() => createGuards({ prefix: 5 as never })).toThrow(/createGuards: options.prefix must be a string/);
    expect(() => createGuards({ client: 'redis://x' as never })).toThrow(InvalidArgumentError);
    expect(() => createGuards({ client: {} })).toThrow(UnknownClientError);
    expect(() => createGuards({ client: {} })).toThrow(/^createGuards: a plain object is not a client replica-guard knows/);
  });

  test('waitMs and retryDelayMs are checked', async () => {
    const guards = createGuards({ logger: {} });
    await expect(guards.runExclusive('k', 1000, () => 1, { waitMs: -1 })).rejects.toThrow(
      /runExclusive: options.waitMs must be a positive integer/,
    );
    await expect(guards.runExclusive('k', 1000, () => 1, { waitMs: 100, retryDelayMs: 0 })).rejects.toThrow(
      /runExclusive: options.retryDelayMs must be a positive integer/,
    );
  });
});
