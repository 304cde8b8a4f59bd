// runExclusive and runOnce against every lease store: renewal, takeover, release, retry.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { LeaseLostError, periodKey, runExclusive, runOnce, setLeaseClient, type SkipEvent } from '../../src/index.js';
import { storeFactories, type ConnectedLeaseClient, type StoreSideDoor } from './stores.js';
import { runReplicas } from './fixtures/spawn-replicas.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `signal` aborts (at once if it already has) or after `ms`. */
function abortedOrAfter(signal: AbortSignal, ms: number): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe.each(storeFactories)('leases ($name)', (factory) => {
  const prefix = `guards-leases:${factory.name}:${randomUUID()}:`;
  let connected: ConnectedLeaseClient;
  let sideDoor: StoreSideDoor;
  const skips: SkipEvent[] = [];

  beforeAll(async () => {
    connected = await factory.connect(inject(factory.urlKey));
    sideDoor = await factory.sideDoor(inject(factory.urlKey));
    setLeaseClient(connected.client, { ...connected.options, prefix, logger: {}, onSkip: (event) => skips.push(event) });
  });
  afterAll(async () => {
    setLeaseClient(null, { logger: {} });
    await Promise.all([connected?.close(), sideDoor?.close()]);
  });

  test('runExclusive keeps a short lease alive past its ttl; others are turned away meanwhile', async () => {
    // Generous for a loaded 2-core CI box: renewal every 300 ms, fn holds it for 4 ttls.
    const ttlMs = 900;
    let competitorRuns = 0;
    const holder = runExclusive('reindex', ttlMs, async (signal) => {
      // A competitor with its own owner token tries for 4 ttls.
      for (let i = 0; i < 12; i++) {
        await sleep(300);
        const other = await runExclusive('reindex', ttlMs, async () => (competitorRuns += 1));
        expect(other).toEqual({ ran: false, leaseLost: false, reason: 'claimed-elsewhere' });
        expect(await sideDoor.remainingMs(`${prefix}reindex`)).toBeGreaterThan(0);
      }
      return signal.aborted ? 'aborted' : 'done';
    });
    const result = await holder;
    expect(result).toEqual({ ran: true, value: 'done', leaseLost: false, fencingToken: expect.any(Number) });
    expect(competitorRuns).toBe(0);
    // Released by compare-and-delete: the key is gone, and the next run can start at once.
    expect(await sideDoor.owner(`${prefix}reindex`)).toBeNull();
    expect((await runExclusive('reindex', ttlMs, async () => 'next')).ran).toBe(true);
    expect(skips.filter((s) => s.key === 'reindex').every((s) => s.guard === 'runExclusive' && s.reason === 'claimed-elsewhere')).toBe(
      true,
    );
  });

  test('a lease taken over mid-run aborts the signal within ~ttl/3 and the new owner is not clobbered', async () => {
    const ttlMs = 600;
    const key = `${prefix}takeover`;
    let tookOverAt = 0;
    let abortedAt = 0;
    let reason: unknown;
    const abortedAtOf = new WeakMap<AbortSignal, number>();
    const result = await runExclusive('takeover', ttlMs, async (signal) => {
      signal.addEventListener('abort', () => abortedAtOf.set(signal, Date.now()));
      await sleep(250);
      await sideDoor.takeOver(key, 'intruder', 10_000);
      tookOverAt = Date.now();
      await abortedOrAfter(signal, 3000);
      if (signal.aborted) {
        abortedAt = abortedAtOf.get(signal) ?? 0;
        reason = signal.reason;
      }
      // Keep running a while after the loss: nothing may touch the key any more.
      await sleep(ttlMs);
      return 'stopped';
    });
    expect(result).toEqual({ ran: true, value: 'stopped', leaseLost: true, fencingToken: expect.any(Number) });
    expect(abortedAt).toBeGreaterThan(0);
    expect(abortedAt - tookOverAt).toBeLessThanOrEqual(ttlMs / 3 + 250);
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(await sideDoor.owner(key)).toBe('intruder');
    // Not extended by us either: 10 s set at takeover, ~1 s has passed.
    expect(await sideDoor.remainingMs(key)).toBeLessThan(9500);
  });

  test("fn's errors propagate and release the lease", async () => {
    await expect(runExclusive('failing', 5000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await sideDoor.owner(`${prefix}failing`)).toBeNull();
  });

  test('runOnce: a failure frees the period for a retry; after success no replica repeats it', async () => {
    const periodMs = 60 * 60 * 1000;
    const key = periodKey('backup', periodMs);
    let attempts = 0;
    await expect(
      runOnce(key, periodMs, async () => {
        attempts += 1;
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await sideDoor.owner(`${prefix}${key}`)).toBeNull();

    const retry = await runOnce(key, periodMs, async () => {
      attempts += 1;
      return 'backed up';
    });
    expect(retry).toEqual({ ran: true, value: 'backed up', leaseLost: false, fencingToken: expect.any(Number) });
    expect(attempts).toBe(2);
    // Kept until the period ends (plus a small clock-skew margin), not released.
    const remaining = await sideDoor.remainingMs(`${prefix}${key}`);
    const untilPeriodEnd = periodMs - (Date.now() % periodMs);
    expect(remaining).toBeGreaterThan(untilPeriodEnd - 5000);
    expect(remaining).toBeLessThanOrEqual(untilPeriodEnd + 2500);

    const again = await runOnce(key, periodMs, async () => (attempts += 1));
    expect(again).toEqual({ ran: false, leaseLost: false, reason: 'claimed-elsewhere' });
    // Late replicas (real processes) cannot repeat the period either.
    const late = await runReplicas<boolean>(
      Array.from({ length: 4 }, () => ({
        store: factory.name,
        url: inject(factory.urlKey),
        prefix,
        task: { kind: 'run-once' as const, key, periodMs },
      })),
    );
    expect(late).toEqual([false, false, false, false]);
    expect(attempts).toBe(2);
  });

  test('runOnce holds the period while fn runs: a replica waking at the same time does not run it', async () => {
    const periodMs = 60 * 60 * 1000;
    const key = periodKey('close-books', periodMs);
    const [first, concurrent] = await Promise.all([
      // fn outlives its 1200 ms lease: renewal keeps the period held.
      runOnce(
        key,
        periodMs,
        async () => {
          await sleep(2000);
          return 'closed';
        },
        { leaseMs: 1200 },
      ),
      sleep(1600).then(() => runOnce(key, periodMs, async () => 'duplicate')),
    ]);
    expect(first).toEqual({ ran: true, value: 'closed', leaseLost: false, fencingToken: expect.any(Number) });
    expect(concurrent).toEqual({ ran: false, leaseLost: false, reason: 'claimed-elsewhere' });
  });

  test('each run gets a signal no earlier run could still observe: an aborted signal or one with a listener is never handed out again', async () => {
    const seen: AbortSignal[] = [];
    // A run that keeps a listener on its signal, and one whose lease is lost (signal aborted).
    await runExclusive('signals', 2000, (signal) => {
      signal.addEventListener('abort', () => undefined);
      seen.push(signal);
    });
    await runExclusive('signals', 600, async (signal) => {
      seen.push(signal);
      await sideDoor.takeOver(`${prefix}signals`, 'intruder', 300);
      await abortedOrAfter(signal, 3000);
    });
    expect(seen[1]!.aborted).toBe(true);
    await sleep(400); // the intruder's lease expires
    for (let i = 0; i < 20; i++) {
      await runExclusive('signals', 2000, (signal) => {
        expect(signal.aborted).toBe(false);
        expect(seen.slice(0, 2)).not.toContain(signal);
      });
    }
  });
});
