// The scheduled slot a cron-driven claim keys on. Pods fire a cron job at the same instant by
// their own clocks; clocks differ, so keying on floor(now / period) splits pods across two
// periods at every boundary. Instead every pod rounds to the latest scheduled fire at or before
// now + tolerance: pods up to `tolerance` early or late all name the same fire.
import { Cron } from 'croner';
import { InvalidArgumentError } from './errors.js';

export interface CronSchedule {
  /** A cron expression (5 fields, or 6 with seconds), as croner parses it. */
  cron: string;
  /** An IANA time zone (`Europe/Berlin`); default: the process's time zone. */
  tz?: string;
}

export interface CronSlot {
  /** The scheduled fire this claim belongs to (epoch ms). */
  startMs: number;
  /** The fire after it (epoch ms), or null when the schedule has none. */
  nextMs: number | null;
  /** How far early a pod may be and still land on this slot. */
  toleranceMs: number;
  /** How long the slot's key lives: until the next fire plus one gap (at least a minute), for late pods. */
  ttlMs: number;
}

/** About 2 s of clock skew between pods is tolerated... */
export const MAX_TOLERANCE_MS = 2000;
/** ...but never more than this share of the gap, so a fire is never mistaken for the next one. */
const TOLERANCE_SHARE_OF_GAP = 0.25;
const FALLBACK_TTL_MS = 24 * 60 * 60 * 1000;
/** A replica whose SET arrives late (GC pause, CPU starvation) must still find the slot taken. */
const STRAGGLER_MARGIN_MS = 60_000;

const cache = new Map<string, Cron>();
const CACHE_LIMIT = 256;

export function cronSlot(schedule: CronSchedule, now: number = Date.now()): CronSlot {
  const job = compileCron(schedule, 'claimPeriod');
  const latestAtOrBefore = (t: number) => job.previousRuns(1, new Date(t + 1))[0]?.getTime();
  const nextAfter = (t: number) => job.nextRun(new Date(t))?.getTime() ?? null;

  let toleranceMs = MAX_TOLERANCE_MS;
  let startMs = latestAtOrBefore(now + toleranceMs);
  if (startMs === undefined) throw noFireError(schedule, now);
  const gapMs = gapAround(startMs, latestAtOrBefore, nextAfter);
  if (gapMs !== null && gapMs * TOLERANCE_SHARE_OF_GAP < toleranceMs) {
    toleranceMs = Math.floor(gapMs * TOLERANCE_SHARE_OF_GAP);
    startMs = latestAtOrBefore(now + toleranceMs);
    if (startMs === undefined) throw noFireError(schedule, now);
  }
  const nextMs = nextAfter(startMs);
  const ttlMs = nextMs === null ? FALLBACK_TTL_MS : Math.max(1, nextMs - now + Math.max(nextMs - startMs, STRAGGLER_MARGIN_MS));
  return { startMs, nextMs, toleranceMs, ttlMs };
}

/** The smaller of the gaps before and after a fire (irregular schedules: `0 9,10 * * *`). */
function gapAround(
  startMs: number,
  latestAtOrBefore: (t: number) => number | undefined,
  nextAfter: (t: number) => number | null,
): number | null {
  const next = nextAfter(startMs);
  const previous = latestAtOrBefore(startMs - 1);
  const gaps = [next === null ? null : next - startMs, previous === undefined ? null : startMs - previous].filter(
    (g): g is number => g !== null,
  );
  return gaps.length === 0 ? null : Math.min(...gaps);
}

/** Parses (and caches) a schedule; bad expressions and unknown time zones are caller errors. */
export function compileCron(schedule: CronSchedule, fn: string): Cron {
  if (typeof schedule !== 'object' || schedule === null || typeof schedule.cron !== 'string' || schedule.cron.trim() === '') {
    throw new InvalidArgumentError(
      `${fn}: a cron period must be { cron: string, tz?: string } with a non-empty expression, got ${JSON.stringify(schedule)}`,
    );
  }
  const { cron: expression, tz } = schedule;
  if (tz !== undefined) assertTimeZone(fn, tz);
  const cacheKey = `${tz ?? ''}\u0000${expression}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  let job: Cron;
  try {
    job = new Cron(expression, tz === undefined ? { paused: true } : { paused: true, timezone: tz });
  } catch (cause) {
    throw new InvalidArgumentError(
      `${fn}: invalid cron expression "${expression}": ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, job);
  return job;
}

function assertTimeZone(fn: string, tz: unknown): void {
  try {
    if (typeof tz !== 'string' || tz === '') throw new RangeError('not a string');
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch (cause) {
    throw new InvalidArgumentError(
      `${fn}: unknown time zone ${JSON.stringify(tz)} in cron period (expected an IANA name like "Europe/Berlin")`,
      { cause },
    );
  }
}

function noFireError(schedule: CronSchedule, now: number): InvalidArgumentError {
  return new InvalidArgumentError(
    `claimPeriod: cron expression "${schedule.cron}" has no scheduled fire at or before ${new Date(now).toISOString()}`,
  );
}
