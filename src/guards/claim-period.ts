import { cronSlot, type CronSchedule } from '../cron-slot.js';
import { InvalidArgumentError } from '../errors.js';
import { claimKey } from './key-claim.js';
import type { TimedGuardOptions } from './guard-options.js';
import { currentLeaseConfig, type LeaseConfig } from './lease-config.js';
import { MAX_DATE_MS, assertKey, assertOptionalNow, assertPositiveInteger, optionsObject, show } from './validate.js';

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
export function claimPeriod(key: string, period: number | CronSchedule, options?: TimedGuardOptions): Promise<boolean> {
  return claimPeriodWith(currentLeaseConfig(), key, period, options);
}

export function claimPeriodWith(
  config: LeaseConfig,
  key: string,
  period: number | CronSchedule,
  options?: TimedGuardOptions,
): Promise<boolean> {
  try {
    assertKey('claimPeriod', 'key', key);
    if (options === undefined) return claimWindow(config, key, period, config.timeoutMs, Date.now());
    const { timeoutMs = config.timeoutMs, now } = optionsObject('claimPeriod', options);
    assertOptionalNow('claimPeriod', now);
    if (timeoutMs !== config.timeoutMs) assertPositiveInteger('claimPeriod', 'options.timeoutMs', timeoutMs);
    return claimWindow(config, key, period, timeoutMs, now ?? Date.now());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The claim of the window (or cron slot) `now` falls in: its key and ttl. Throws on a bad period. */
function claimWindow(config: LeaseConfig, key: string, period: number | CronSchedule, timeoutMs: number, now: number): Promise<boolean> {
  // The key in the backend, built in one expression: prefix, the caller's key, the window or slot.
  let backendKey: string;
  let ttlMs: number;
  if (typeof period === 'number') {
    assertPositiveInteger('claimPeriod', 'period', period);
    // periodKey(key, period, now) without validating its arguments again.
    const window = Math.floor(now / period);
    backendKey = config.prefix + key + ':' + window;
    // The key names its window, so its TTL only has to outlive stragglers: a replica that read
    // the clock late in the window but whose SET arrives late (GC pause, CPU starvation). Keep it
    // a full period (at least a minute) past the window's end.
    ttlMs = (window + 1) * period - now + Math.max(period, STRAGGLER_MARGIN_MS);
    if (now + ttlMs > MAX_DATE_MS) {
      throw new InvalidArgumentError(
        `claimPeriod: period of ${period} ms puts its window's end past the last valid Date (${MAX_DATE_MS} ms)`,
      );
    }
  } else if (typeof period === 'object' && period !== null && 'cron' in period) {
    const slot = cronSlot(period, now);
    backendKey = config.prefix + key + ':' + new Date(slot.startMs).toISOString();
    ttlMs = slot.ttlMs;
  } else {
    throw new InvalidArgumentError(`claimPeriod: period must be milliseconds or { cron: string, tz?: string }, got ${show(period)}`);
  }
  return claimKey(config, 'claimPeriod', key, backendKey, ttlMs, timeoutMs);
}
