// Leases that never lie: a holder whose CPU-bound fn blocked the event loop past the lease (so no
// renewal could run) learns it lost the lease when fn returns, on Redis and on PostgreSQL, with
// real replica processes racing for the key. runOnce keeps its period after such a run.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createGuards, periodKey, type GuardEvent } from '../../src/index.js';
import { storeFactory, type ConnectedLeaseClient, type StoreSideDoor } from './stores.js';
import { runReplicas } from './fixtures/spawn-replicas.js';
import type { BusyResult, ContendResult } from './fixtures/replica.js';

const STORES = ['ioredis', 'postgres (pg)', 'postgres via PgBouncer (postgres.js)'];

describe.each(STORES)('a lease lost while fn blocked the event loop (%s)', (name) => {
  const factory = storeFactory(name);
  const url = () => inject(factory.urlKey);
  const prefix = `lease-truth:${name}:${randomUUID()}:`;

  test('CPU-bound fn outlives its lease while another replica takes it: reported lost, signal aborted, tokens ordered', async () => {
    const ttlMs = 1000;
    const [holder, contender] = await runReplicas<BusyResult | ContendResult>([
      { store: name, url: url(), prefix, task: { kind: 'busy-exclusive', key: 'cpu-job', ttlMs, busyMs: 3000 } },
      { store: name, url: url(), prefix, task: { kind: 'contend-exclusive', key: 'cpu-job', ttlMs, delayMs: 500, durationMs: 5000 } },
    ]);
    const busy = holder as BusyResult;
    const other = contender as ContendResult;
    // The scenario really happened: the other replica ran while the holder was still busy.
    expect(other.ran).toBe(true);
    expect(other.at!).toBeGreaterThan(busy.startedAt + ttlMs - 200);
    expect(other.at!).toBeLessThan(busy.endedAt);
    // ...and the holder says so instead of { leaseLost: false }.
    expect(busy).toMatchObject({ ran: true, leaseLost: true, aborted: true, abortCode: 'LEASE_LOST' });
    expect(busy.fencingToken).toBeGreaterThan(0);
    expect(other.fencingToken!).toBeGreaterThan(busy.fencingToken!);
  });

  test('runOnce whose lease ran out during a CPU-bound run still keeps the period: a later replica does not repeat it', async () => {
    const periodMs = 60 * 60 * 1000;
    const key = periodKey('cpu-once', periodMs);
    const [first] = await runReplicas<BusyResult>([
      { store: name, url: url(), prefix, task: { kind: 'busy-run-once', key, periodMs, leaseMs: 600, busyMs: 1500 } },
    ]);
    // The lease did lapse (nobody took it): reported, and the period is kept anyway.
    expect(first).toMatchObject({ ran: true, leaseLost: true });
    const late = await runReplicas<boolean>(
      [0, 1].map(() => ({ store: name, url: url(), prefix, task: { kind: 'run-once' as const, key, periodMs } })),
    );
    expect(late).toEqual([false, false]);
  });
});

describe.each(['ioredis', 'postgres (pg)'])('runOnce taken over mid-run (%s)', (name) => {
  const factory = storeFactory(name);
  const prefix = `lease-truth-takeover:${name}:${randomUUID()}:`;
  let connected: ConnectedLeaseClient;
  let sideDoor: StoreSideDoor;
  const events: GuardEvent[] = [];

  beforeAll(async () => {
    connected = await factory.connect(inject(factory.urlKey));
    sideDoor = await factory.sideDoor(inject(factory.urlKey));
  });
  afterAll(async () => {
    await Promise.all([connected?.close(), sideDoor?.close()]);
  });

  test('a lease that ran out while nobody took it: the period is kept, the lapse reported as "expired"', async () => {
    const guards = createGuards({ client: connected.client, ...connected.options, prefix, logger: {}, onEvent: (e) => events.push(e) });
    const periodMs = 60 * 60 * 1000;
    const key = periodKey('lapsed', periodMs);
    const result = await guards.runOnce(
      key,
      periodMs,
      () => {
        const end = Date.now() + 1200;
        while (Date.now() < end) {
          // blocked: no renewal runs
        }
        return 'done';
      },
      { leaseMs: 500 },
    );
    expect(result).toMatchObject({ ran: true, value: 'done', leaseLost: true });
    expect(events.filter((e) => e.type === 'lease-lost')).toEqual([
      { type: 'lease-lost', guard: 'runOnce', key, reason: 'expired', fencingToken: result.fencingToken },
    ]);
    expect(await sideDoor.remainingMs(`${prefix}${key}`)).toBeGreaterThan(periodMs - (Date.now() % periodMs) - 5000);
    expect((await guards.runOnce(key, periodMs, () => 'again')).ran).toBe(false);
  });

  test('taken over mid-run: the keep after success leaves the new owner alone and reports the takeover', async () => {
    const guards = createGuards({ client: connected.client, ...connected.options, prefix, logger: {}, onEvent: (e) => events.push(e) });
    const periodMs = 60 * 60 * 1000;
    const key = periodKey('taken', periodMs);
    const result = await guards.runOnce(
      key,
      periodMs,
      async () => {
        await sideDoor.takeOver(`${prefix}${key}`, 'other-replica', 60_000);
        return 'done';
      },
      { leaseMs: 5000 },
    );
    expect(result).toMatchObject({ ran: true, value: 'done', leaseLost: true });
    expect(await sideDoor.owner(`${prefix}${key}`)).toBe('other-replica');
    expect(await sideDoor.remainingMs(`${prefix}${key}`)).toBeLessThanOrEqual(60_000);
    expect(events.filter((e) => e.type === 'lease-lost').at(-1)).toMatchObject({ guard: 'runOnce', key, reason: 'taken-over' });
  });
});
