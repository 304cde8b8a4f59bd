import { claimLease } from './claim-lease.js';
import type { TimedGuardOptions } from './guard-options.js';
import { runHeld } from './run-held.js';
import { skipped, type RunResult } from './run-result.js';
import { assertFunction, assertKey, assertOptionalNow, assertPositiveInteger } from './validate.js';

export interface RunOnceOptions extends TimedGuardOptions {
  /**
   * The lease held (and renewed every leaseMs/3) while `fn` runs. If the holder dies, another
   * replica can retry after this long. Default: the smaller of periodMs and 30 s.
   */
  leaseMs?: number;
}

const DEFAULT_LEASE_MS = 30_000;
/** Kept past the period's end, so a pod whose clock runs a little behind cannot repeat it. */
const MAX_SKEW_MARGIN_MS = 2000;

/**
 * Runs `fn` once per period even when every pod wakes together. Use with
 * `periodKey(prefix, periodMs)`. The key is held (renewed) while `fn` runs; after success it is
 * kept until the period ends, so a late replica cannot repeat the period; after a failure it is
 * deleted, so a retry can happen. Errors thrown by `fn` propagate.
 *
 * @example await runOnce(periodKey('db:backup', HOUR), HOUR, (signal) => backup(signal));
 */
export async function runOnce<T>(
  key: string,
  periodMs: number,
  fn: (signal: AbortSignal) => Promise<T> | T,
  options: RunOnceOptions = {},
): Promise<RunResult<T>> {
  assertKey('runOnce', 'key', key);
  assertPositiveInteger('runOnce', 'periodMs', periodMs);
  assertFunction('runOnce', 'fn', fn);
  assertOptionalNow('runOnce', options.now);
  if (options.timeoutMs !== undefined) assertPositiveInteger('runOnce', 'options.timeoutMs', options.timeoutMs);
  const leaseMs = options.leaseMs ?? Math.min(periodMs, DEFAULT_LEASE_MS);
  assertPositiveInteger('runOnce', 'options.leaseMs', leaseMs);

  const startedAt = options.now ?? Date.now();
  const startedReal = Date.now();
  const periodEnd = (Math.floor(startedAt / periodMs) + 1) * periodMs;
  const skewMargin = Math.min(MAX_SKEW_MARGIN_MS, Math.floor(periodMs / 4));

  const outcome = await claimLease({
    guard: 'runOnce',
    key,
    storageKey: key,
    ttlMs: leaseMs,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  if (!outcome.claimed) return skipped(outcome.reason);
  return runHeld(outcome.lease, leaseMs, fn, {
    keepForMs: () => periodEnd - (startedAt + (Date.now() - startedReal)) + skewMargin,
  });
}
