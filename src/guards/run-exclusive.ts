import { claimLease } from './claim-lease.js';
import type { GuardOptions } from './guard-options.js';
import { runHeld } from './run-held.js';
import { skipped, type RunResult } from './run-result.js';
import { assertFunction, assertKey, assertPositiveInteger } from './validate.js';

/**
 * Runs `fn` only if no other replica is running it: an owner-token lease of `ttlMs`, renewed
 * every ttl/3 by compare-and-extend and released by compare-and-delete. If the lease is lost, the
 * signal aborts (stop work that is no longer exclusive) and the result says `leaseLost`. Errors
 * thrown by `fn` propagate after the lease is released.
 *
 * @example const result = await runExclusive('search:reindex', 30_000, (signal) => reindex(signal));
 */
export async function runExclusive<T>(
  key: string,
  ttlMs: number,
  fn: (signal: AbortSignal) => Promise<T> | T,
  options: GuardOptions = {},
): Promise<RunResult<T>> {
  assertKey('runExclusive', 'key', key);
  assertPositiveInteger('runExclusive', 'ttlMs', ttlMs);
  assertFunction('runExclusive', 'fn', fn);
  if (options.timeoutMs !== undefined) assertPositiveInteger('runExclusive', 'options.timeoutMs', options.timeoutMs);
  const outcome = await claimLease({
    guard: 'runExclusive',
    key,
    storageKey: key,
    ttlMs,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  if (!outcome.claimed) return skipped(outcome.reason);
  return runHeld(outcome.lease, ttlMs, fn);
}
