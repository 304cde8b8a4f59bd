import { InvalidArgumentError } from '../errors.js';
import { claimLease } from './claim-lease.js';
import type { TimedGuardOptions } from './guard-options.js';
import { currentLeaseConfig, type LeaseConfig } from './lease-config.js';
import { leaseClaimTimeout } from './lease-timing.js';
import { runHeld } from './run-held.js';
import { skipped, type LeaseContext, type RunResult } from './run-result.js';
import { assertFunction, assertKey, assertOptionalNow, assertPositiveInteger, optionsObject } from './validate.js';

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
 * kept until the period ends — even when the lease ran out during the run and nobody took it —
 * so a late replica cannot repeat the period; after a failure it is deleted, so a retry can
 * happen. Errors thrown by `fn` propagate.
 *
 * @example await runOnce(periodKey('db:backup', HOUR), HOUR, (signal) => backup(signal));
 */
export function runOnce<T>(
  key: string,
  periodMs: number,
  fn: (signal: AbortSignal, lease: LeaseContext) => Promise<T> | T,
  options?: RunOnceOptions,
): Promise<RunResult<T>> {
  return runOnceWith(currentLeaseConfig(), key, periodMs, fn, options);
}

export async function runOnceWith<T>(
  config: LeaseConfig,
  key: string,
  periodMs: number,
  fn: (signal: AbortSignal, lease: LeaseContext) => Promise<T> | T,
  options?: RunOnceOptions,
): Promise<RunResult<T>> {
  assertKey('runOnce', 'key', key);
  assertPositiveInteger('runOnce', 'periodMs', periodMs);
  assertFunction('runOnce', 'fn', fn);
  const { now, timeoutMs: givenTimeout, leaseMs: givenLeaseMs } = optionsObject('runOnce', options);
  assertOptionalNow('runOnce', now);
  if (givenTimeout !== undefined) assertPositiveInteger('runOnce', 'options.timeoutMs', givenTimeout);
  const leaseMs = givenLeaseMs ?? Math.min(periodMs, DEFAULT_LEASE_MS);
  const timeoutMs = leaseClaimTimeout('runOnce', config, givenLeaseMs === undefined ? 'leaseMs' : 'options.leaseMs', leaseMs, givenTimeout);

  const startedAt = now ?? Date.now();
  const startedReal = Date.now();
  const periodEnd = (Math.floor(startedAt / periodMs) + 1) * periodMs;
  const skewMargin = Math.min(MAX_SKEW_MARGIN_MS, Math.floor(periodMs / 4));
  if (periodEnd + skewMargin > 8.64e15) {
    throw new InvalidArgumentError(`runOnce: periodMs of ${periodMs} ms puts the period's end past the last valid Date`);
  }

  const outcome = await claimLease(config, { guard: 'runOnce', key, storageKey: key, ttlMs: leaseMs, timeoutMs, fenced: true });
  if (!outcome.claimed) return skipped(outcome.reason);
  return runHeld(outcome.lease, leaseMs, fn, {
    keepForMs: () => periodEnd - (startedAt + (Date.now() - startedReal)) + skewMargin,
  });
}
