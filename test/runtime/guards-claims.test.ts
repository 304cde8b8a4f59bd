// claimPeriod and claimOnce across real replica processes, against every lease store. Each store
// starts its 8 replicas once; every replica runs the same sequence of checks (the real-clock race
// first, while all start together), and each test below asserts on its part of the results.
import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { storeFactories } from './stores.js';
import { runReplicas } from './fixtures/spawn-replicas.js';
import type { PlannedCall, Task } from './fixtures/replica.js';

const REPLICAS = 8;
const PERIOD_MS = 200;

const onTheHour = { cron: '0 * * * *', tz: 'UTC' };
const boundaries = Array.from({ length: 30 }, (_, i) => Date.UTC(2030, 0, 1, i));
const everyTwoSeconds = { cron: '*/2 * * * * *' };
const fires = new Cron(everyTwoSeconds.cron, { paused: true }).nextRuns(40, new Date(Date.UTC(2030, 5, 1))).map((d) => d.getTime());
const events = Array.from({ length: 40 }, (_, i) => `notify:sla:task-${i}:step-3`);

const jitter = (maxMs: number) => Math.round((Math.random() * 2 - 1) * maxMs);

function tasksFor(replica: number): Task[] {
  return [
    { kind: 'race-period', key: 'race', periodMs: PERIOD_MS, durationMs: 3000 },
    { kind: 'plan', calls: events.map((key): PlannedCall => ({ guard: 'claimOnce', key, ttlMs: 60_000 })) },
    {
      kind: 'plan',
      // Each replica's clock is off by up to ±2 s at each boundary (two replicas at the extremes);
      // floor(now / 1 h) keys would split them into two periods and give two winners.
      calls: boundaries.map((b): PlannedCall => {
        const skew = replica === 0 ? -2000 : replica === 1 ? 2000 : jitter(2000);
        return { guard: 'claimPeriod', key: 'hourly-close', period: onTheHour, now: b + skew };
      }),
    },
    {
      kind: 'plan',
      calls: fires.map((fire): PlannedCall => ({ guard: 'claimPeriod', key: 'report', period: everyTwoSeconds, now: fire + jitter(400) })),
    },
  ];
}

function countBy<T>(items: T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

describe.each(storeFactories)('claims across $name replicas', (factory) => {
  let race: number[][];
  let once: boolean[][];
  let skewed: boolean[][];
  let jittered: boolean[][];

  beforeAll(async () => {
    const prefix = `guards-claims:${factory.name}:${randomUUID()}:`;
    const results = await runReplicas<[number[], boolean[], boolean[], boolean[]]>(
      Array.from({ length: REPLICAS }, (_, r) => ({
        store: factory.name,
        url: inject(factory.urlKey),
        prefix,
        task: { kind: 'sequence', tasks: tasksFor(r) },
      })),
    );
    race = results.map((r) => r[0]);
    once = results.map((r) => r[1]);
    skewed = results.map((r) => r[2]);
    jittered = results.map((r) => r[3]);
  });

  test('8 replicas racing claimPeriod on the real clock: no period has two winners, and each next period is claimable', () => {
    const winners = countBy(race.flat());
    const periods = [...winners.keys()].sort((a, b) => a - b);
    expect(periods.length).toBeGreaterThanOrEqual(10);
    for (const [period, count] of winners) expect({ period, count }).toEqual({ period, count: 1 });
    // Nearly every 200 ms period in the run was won by someone (a loaded box may stall all eight
    // replicas through one now and then; that is a missed tick, not a double run).
    const span = periods[periods.length - 1]! - periods[0]! + 1;
    expect(periods.length / span).toBeGreaterThanOrEqual(0.8);
    // More than one replica won: this was a race, not one fast process.
    expect(race.filter((won) => won.length > 0).length).toBeGreaterThan(1);
  });

  test('claimOnce across 8 replicas: each business event has exactly one winner', () => {
    events.forEach((event, i) => expect(once.filter((r) => r[i]).length, event).toBe(1));
  });

  test('cron slots under ±2 s clock skew around each boundary: exactly one winner per fire', () => {
    boundaries.forEach((b, i) => expect(skewed.filter((r) => r[i]).length, new Date(b).toISOString()).toBe(1));
  });

  test('a frequent cron fired with ±400 ms jitter: each fire is won exactly once', () => {
    fires.forEach((f, i) => expect(jittered.filter((r) => r[i]).length, new Date(f).toISOString()).toBe(1));
  });
});
