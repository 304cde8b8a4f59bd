import { cronSlot, type CronSchedule } from '../cron-slot.js';
import { InvalidArgumentError } from '../errors.js';
import { claimLease } from './claim-lease.js';
import type { TimedGuardOptions } from './guard-options.js';
import { periodKey } from './period-key.js';
import { assertKey, assertOptionalNow, assertPositiveInteger, show } from './validate.js';

const STRAGGLER_MARGIN_MS = 60_000;

/**
 * The first replica to ask in a period wins; every other ask in that period (other pods,
 * restarts, the startup run) gets false. One round trip: `SET <prefix><key>:<window> <owner> NX PX`.
 *
 * `period` is a number of milliseconds (epoch-aligned windows) or `{ cron, tz? }`, which keys on
 * the scheduled fire so pods with a few seconds of clock skew share one slot.
 *
 * @example if (!(await claimPeriod('billing:renewals', 60_000))) return;
 */
export async function claimPeriod(key: string, period: number | CronSchedule, options: TimedGuardOptions = {}): Promise<boolean> {
  assertKey('claimPeriod', 'key', key);
  assertOptionalNow('claimPeriod', options.now);
  if (options.timeoutMs !== undefined) assertPositiveInteger('claimPeriod', 'options.timeoutMs', options.timeoutMs);
  const now = options.now ?? Date.now();
  let storageKey: string;
  let ttlMs: number;
  if (typeof period === 'number') {
    assertPositiveInteger('claimPeriod', 'period', period);
    storageKey = periodKey(key, period, now);
    // The key names its window, so its TTL only has to outlive stragglers: a replica that read
    // the clock late in the window but whose SET arrives late (GC pause, CPU starvation). Keep it
    // a full period (at least a minute) past the window's end.
    ttlMs = period - (((now % period) + period) % period) + Math.max(period, STRAGGLER_MARGIN_MS);
  } else if (typeof period === 'object' && period !== null && 'cron' in period) {
    const slot = cronSlot(period, now);
    storageKey = `${key}:${new Date(slot.startMs).toISOString()}`;
    ttlMs = slot.ttlMs;
  } else {
    throw new InvalidArgumentError(`claimPeriod: period must be milliseconds or { cron: string, tz?: string }, got ${show(period)}`);
  }
  const outcome = await claimLease({
    guard: 'claimPeriod',
    key,
    storageKey,
    ttlMs,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return outcome.claimed;
}
