// Bad input gets an error naming what was wrong; local mode; periodKey; cron slots; perReplica.
import { createClient } from 'redis';
import { afterEach, describe, expect, test } from 'vitest';
import {
  claimOnce,
  claimPeriod,
  createGuards,
  cronSlot,
  InvalidArgumentError,
  perReplica,
  periodKey,
  runExclusive,
  runOnce,
  setLeaseClient,
  UnknownClientError,
  type LeaseStore,
  type Logger,
  type SkipEvent,
} from '../../src/index.js';

function recordingLogger(): { logger: Logger; lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (message: string) => void lines.push([level, message]);
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

afterEach(() => setLeaseClient(null, { logger: {} }));

describe('bad input', () => {
  test.each([
    ['claimPeriod empty key', () => claimPeriod('', 1000), /claimPeriod: key must be a non-empty string, got ""/],
    ['claimPeriod zero period', () => claimPeriod('job', 0), /claimPeriod: period must be a positive integer .*got 0/],
    ['claimPeriod fractional period', () => claimPeriod('job', 1.5), /period must be a positive integer .*got 1.5/],
    ['claimPeriod bad cron', () => claimPeriod('job', { cron: '61 * * * *' }), /claimPeriod: invalid cron expression "61 \* \* \* \*"/],
    ['claimPeriod empty cron', () => claimPeriod('job', { cron: ' ' }), /non-empty expression/],
    ['claimPeriod bad tz', () => claimPeriod('job', { cron: '0 * * * *', tz: 'Mars/Olympus' }), /unknown time zone "Mars\/Olympus"/],
    ['claimPeriod bad period type', () => claimPeriod('job', 'hourly' as never), /period must be milliseconds or \{ cron/],
    ['claimPeriod bad now', () => claimPeriod('job', 1000, { now: Number.NaN }), /options.now must be a finite/],
    ['claimOnce negative ttl', () => claimOnce('event', -5), /claimOnce: ttlMs must be a positive integer .*got -5/],
    ['claimOnce non-string key', () => claimOnce(42 as never, 1000), /claimOnce: key must be a non-empty string, got 42/],
    ['runExclusive zero ttl', () => runExclusive('job', 0, async () => 1), /runExclusive: ttlMs must be a positive integer/],
    ['runExclusive fn missing', () => runExclusive('job', 1000, undefined as never), /runExclusive: fn must be a function, got undefined/],
    ['runOnce empty key', () => runOnce('', 1000, async () => 1), /runOnce: key must be a non-empty string/],
    ['claimPeriod null options', () => claimPeriod('job', 1000, null as never), /claimPeriod: options must be an object, got null/],
    ['claimOnce null options', () => claimOnce('job', 1000, null as never), /claimOnce: options must be an object, got null/],
    [
      'runExclusive null options',
      () => runExclusive('job', 1000, () => 1, null as never),
      /runExclusive: options must be an object, got null/,
    ],
    ['runOnce null options', () => runOnce('job', 1000, () => 1, null as never), /runOnce: options must be an object, got null/],
    [
      'claimPeriod period past the Date range',
      () => claimPeriod('job', 5e15),
      /claimPeriod: period of 5000000000000000 ms .*past the last valid Date/,
    ],
    [
      'claimOnce ttl past the Date range',
      () => claimOnce('job', 9e15),
      /claimOnce: ttlMs of 9000000000000000 ms ends past the last valid Date/,
    ],
    [
      'claimPeriod now past the Date range',
      () => claimPeriod('job', 1000, { now: 1e16 }),
      /options.now must be a finite epoch-milliseconds number within the Date range/,
    ],
    [
      'runOnce period past the Date range',
      () => runOnce('job', 9e15, () => 1),
      /runOnce: periodMs of 9000000000000000 ms puts the period's end past/,
    ],
    [
      'runExclusive ttl too short for its timeout',
      () => runExclusive('job', 1000, () => 1, { timeoutMs: 2000 }),
      /runExclusive: ttlMs of 1000 ms is too short for options.timeoutMs of 2000 ms.*ttlMs >= 2500/,
    ],
    [
      'runOnce lease too short for its timeout',
      () => runOnce('job', 60_000, () => 1, { leaseMs: 500, timeoutMs: 450 }),
      /runOnce: options.leaseMs of 500 ms is too short for options.timeoutMs of 450 ms/,
    ],
    ['runExclusive ttl below the minimum', () => runExclusive('job', 5, () => 1), /runExclusive: ttlMs must be at least 10 ms, got 5/],
    [
      'runOnce bad timeout',
      () => runOnce('job', 1000, async () => 1, { timeoutMs: 0 }),
      /runOnce: options.timeoutMs must be a positive integer/,
    ],
  ])('%s', async (_name, call, message) => {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect((error as Error).message).toMatch(message);
  });

  test('an invalid cron expression keeps the parser error as cause', async () => {
    const error = await claimPeriod('job', { cron: 'every hour' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  test('periodKey validates its arguments', () => {
    expect(() => periodKey('', 1000)).toThrow(/periodKey: prefix must be a non-empty string/);
    expect(() => periodKey('backup', 0)).toThrow(/periodKey: periodMs must be a positive integer/);
  });

  test.each([
    ['a plain object', {}, /a plain object is not a client replica-guard knows/],
    ['a Map', new Map(), /an object of class Map is not a client/],
  ])('setLeaseClient rejects %s with UnknownClientError', (_name, client, message) => {
    expect(() => setLeaseClient(client)).toThrow(UnknownClientError);
    expect(() => setLeaseClient(client)).toThrow(message);
  });

  test('setLeaseClient rejects bad options', () => {
    expect(() => setLeaseClient(null, { timeoutMs: -1 })).toThrow(/setLeaseClient: options.timeoutMs must be a positive integer/);
    expect(() => setLeaseClient(null, { prefix: 5 as never })).toThrow(/options.prefix must be a string/);
    expect(() => setLeaseClient(null, { onSkip: 'log' as never })).toThrow(/options.onSkip must be a function/);
    expect(() => setLeaseClient('redis://localhost' as never)).toThrow(InvalidArgumentError);
    expect(() => setLeaseClient({}, { store: 'mongo' as never })).toThrow(/unknown store "mongo"/);
  });
});

test('a node-redis client that was never connected fails closed at once, saying why', async () => {
  const skips: unknown[] = [];
  setLeaseClient(createClient({ url: 'redis://127.0.0.1:1' }), { logger: {}, timeoutMs: 300, onSkip: (event) => skips.push(event) });
  const start = performance.now();
  expect(await claimOnce('event', 1000)).toBe(false);
  expect(performance.now() - start).toBeLessThan(250); // not the 300 ms timeout: it cannot connect by itself
  expect(skips).toEqual([expect.objectContaining({ guard: 'claimOnce', key: 'event', reason: 'backend-unavailable' })]);
  expect(String((skips[0] as { error: Error }).error.message)).toMatch(/call connect\(\)/);
});

describe('local mode (no lease client)', () => {
  test('every claim succeeds, announced once at info level', async () => {
    const { logger, lines } = recordingLogger();
    setLeaseClient(null, { logger });
    expect(await claimPeriod('job', 1000)).toBe(true);
    expect(await claimPeriod('job', 1000)).toBe(true);
    expect(await claimOnce('event', 1000)).toBe(true);
    expect(await runExclusive('job', 1000, async (signal) => signal.aborted)).toEqual({
      ran: true,
      value: false,
      leaseLost: false,
      fencingToken: expect.any(Number),
    });
    expect(await runOnce('job', 1000, async () => 'x')).toEqual({
      ran: true,
      value: 'x',
      leaseLost: false,
      fencingToken: expect.any(Number),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toBe('info');
    expect(lines[0]?.[1]).toMatch(/local mode/);
  });

  test('a loud warning when NODE_ENV is production', async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const { logger, lines } = recordingLogger();
      setLeaseClient(null, { logger });
      await claimPeriod('job', 1000);
      await claimPeriod('job', 1000);
      expect(lines).toHaveLength(1);
      expect(lines[0]?.[0]).toBe('warn');
      expect(lines[0]?.[1]).toMatch(/EVERY REPLICA RUNS EVERY GUARDED JOB/);
    } finally {
      process.env.NODE_ENV = previous;
    }
  });

  test('a logger with only some methods, or one that throws, never breaks a guard', async () => {
    setLeaseClient(null, { logger: { warn: () => undefined } });
    expect(await claimOnce('a', 1000)).toBe(true);
    setLeaseClient(null, {
      logger: {
        info: () => {
          throw new Error('logger down');
        },
      },
    });
    expect(await claimOnce('b', 1000)).toBe(true);
  });
});

describe('a claim held elsewhere (what every replica but the winner is told)', () => {
  const taken: LeaseStore = { kind: 'test', acquire: async () => false, extend: async () => false, release: async () => false };

  test('is one debug line naming the job and its window, and an onSkip event', async () => {
    const { logger, lines } = recordingLogger();
    const skips: SkipEvent[] = [];
    const guards = createGuards({ client: taken, logger, onSkip: (event) => skips.push(event) });
    expect(await guards.claimPeriod('billing:close', 60_000, { now: 150_000 })).toBe(false);
    expect(lines).toEqual([
      ['debug', 'replica-guard: claimPeriod("billing:close") skipped: "billing:close:2" is claimed by another replica'],
    ]);
    expect(skips).toEqual([{ guard: 'claimPeriod', key: 'billing:close', reason: 'claimed-elsewhere' }]);
  });

  test('writes nothing to a logger without debug (the default), and onSkip still sees it', async () => {
    const { logger, lines } = recordingLogger();
    delete logger.debug;
    const skips: SkipEvent[] = [];
    const guards = createGuards({ client: taken, logger, onSkip: (event) => skips.push(event) });
    expect(await guards.claimOnce('notify:task-42', 60_000)).toBe(false);
    expect(lines).toEqual([]);
    expect(skips).toEqual([{ guard: 'claimOnce', key: 'notify:task-42', reason: 'claimed-elsewhere' }]);
  });
});

describe('a claim the backend cannot answer (fail closed)', () => {
  test('a failing store: false, one warning naming the job and its window (without the prefix), and an onSkip event with the cause', async () => {
    const refused = new Error('connection refused');
    const store: LeaseStore = {
      kind: 'test',
      acquire: () => Promise.reject(refused),
      extend: async () => false,
      release: async () => false,
    };
    const { logger, lines } = recordingLogger();
    const skips: SkipEvent[] = [];
    const guards = createGuards({ client: store, prefix: 'svc:', logger, onSkip: (event) => skips.push(event) });
    expect(await guards.claimPeriod('billing:close', 60_000, { now: 150_000 })).toBe(false);
    expect(lines).toEqual([
      [
        'warn',
        'replica-guard: claimPeriod("billing:close") skipped: lease backend unavailable, failing closed for "billing:close:2": BACKEND_UNAVAILABLE: test claim of "svc:billing:close:2" failed: connection refused',
      ],
    ]);
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatchObject({ guard: 'claimPeriod', key: 'billing:close', reason: 'backend-unavailable' });
    expect((skips[0]!.error as Error).cause).toBe(refused);
  });

  test('a store that never answers: false within timeoutMs (at most a sixteenth later), then the claim that lands late is given back', async () => {
    let land: (won: boolean) => void = () => undefined;
    const released: Array<[string, string]> = [];
    const acquired: Array<[string, string]> = [];
    const store: LeaseStore = {
      kind: 'test',
      acquire: (key, owner) => {
        acquired.push([key, owner]);
        return new Promise<boolean>((resolve) => (land = resolve));
      },
      extend: async () => false,
      release: async (key, owner) => {
        released.push([key, owner]);
        return true;
      },
    };
    const guards = createGuards({ client: store, prefix: 'svc:', logger: {}, timeoutMs: 160 });
    const started = performance.now();
    expect(await guards.claimOnce('notify:task-42', 60_000)).toBe(false);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(159);
    expect(waited).toBeLessThan(160 * (17 / 16) + 250);
    expect(released).toEqual([]);
    land(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(acquired).toHaveLength(1);
    expect(released).toEqual(acquired);
    expect(acquired[0]![0]).toBe('svc:notify:task-42');
  });
});

describe('periodKey', () => {
  test('names the epoch-aligned window containing now', () => {
    expect(periodKey('backup', 3_600_000, Date.UTC(2030, 0, 1, 10, 59, 59, 999))).toBe(`backup:${Date.UTC(2030, 0, 1, 10) / 3_600_000}`);
    expect(periodKey('backup', 3_600_000, Date.UTC(2030, 0, 1, 11))).toBe(`backup:${Date.UTC(2030, 0, 1, 11) / 3_600_000}`);
  });
});

describe('cronSlot', () => {
  const hourly = { cron: '0 * * * *', tz: 'UTC' };
  const boundary = Date.UTC(2030, 0, 1, 10);

  test('pods up to 2 s either side of a fire land on that fire', () => {
    for (const skew of [-2000, -1999, -1, 0, 1, 1999, 2000, 59 * 60_000]) {
      expect(cronSlot(hourly, boundary + skew).startMs, `skew ${skew}`).toBe(boundary);
    }
    expect(cronSlot(hourly, boundary - 2001).startMs).toBe(boundary - 3_600_000);
    expect(cronSlot(hourly, boundary).toleranceMs).toBe(2000);
  });

  test('where floor(now / period) keys split skewed pods into two periods, cron slots do not', () => {
    const early = boundary - 5;
    const late = boundary + 5;
    expect(periodKey('job', 3_600_000, early)).not.toBe(periodKey('job', 3_600_000, late));
    expect(cronSlot(hourly, early).startMs).toBe(cronSlot(hourly, late).startMs);
  });

  test('the tolerance never exceeds a quarter of the gap between fires', () => {
    const everySecond = { cron: '* * * * * *' };
    expect(cronSlot(everySecond, boundary + 10).toleranceMs).toBe(250);
    expect(cronSlot(everySecond, boundary - 250).startMs).toBe(boundary);
    expect(cronSlot(everySecond, boundary - 251).startMs).toBe(boundary - 1000);
    expect(cronSlot(everySecond, boundary + 749).startMs).toBe(boundary);
  });

  test('the key lives until the next fire plus a margin for late pods', () => {
    const slot = cronSlot(hourly, boundary + 1000);
    expect(slot.nextMs).toBe(boundary + 3_600_000);
    expect(slot.ttlMs).toBe(3_600_000 - 1000 + 3_600_000);
  });

  test('honours the time zone', () => {
    const nineInBerlin = { cron: '0 9 * * *', tz: 'Europe/Berlin' };
    // 09:00 in Berlin in January is 08:00 UTC.
    expect(cronSlot(nineInBerlin, Date.UTC(2030, 0, 2, 8, 0, 1)).startMs).toBe(Date.UTC(2030, 0, 2, 8));
  });
});

test('perReplica returns the very same function', () => {
  const flush = () => 'flushed';
  expect(perReplica(flush)).toBe(flush);
});

describe('keys the PostgreSQL store cannot hold', () => {
  test('a NUL character or a key over the index limit is an argument error, not a fail-closed skip', async () => {
    const { storeFactory } = await import('./stores.js');
    const { inject } = await import('vitest');
    const connected = await storeFactory('postgres (pg)').connect(inject('postgresUrl'));
    const skips: unknown[] = [];
    try {
      setLeaseClient(connected.client, { ...connected.options, logger: {}, onSkip: (e) => skips.push(e) });
      const nul = await claimOnce('bad\0key', 1000).catch((e: unknown) => e);
      expect(nul).toBeInstanceOf(InvalidArgumentError);
      expect((nul as Error).message).toMatch(/contains a NUL character/);
      const long = await runExclusive('k'.repeat(2500), 1000, () => 1).catch((e: unknown) => e);
      expect(long).toBeInstanceOf(InvalidArgumentError);
      expect((long as Error).message).toMatch(/is 2514 bytes \(prefix included\); at most 2000/);
      expect(skips).toEqual([]);
      // A key that fits still works.
      expect(await claimOnce(`fits-${'é'.repeat(600)}-${Date.now()}`, 1000)).toBe(true);
    } finally {
      setLeaseClient(null, { logger: {} });
      await connected.close();
    }
  });
});
