import { reportClaim } from './claim-call.js';
import { claimLease, type ClaimOutcome, type ClaimRequest } from './claim-lease.js';
import type { RunExclusiveOptions } from './guard-options.js';
import { currentLeaseConfig, type LeaseConfig } from './lease-config.js';
import { leaseClaimTimeout } from './lease-timing.js';
import { runHeld } from './run-held.js';
import { skipped, type LeaseContext, type RunResult } from './run-result.js';
import { assertDuration, assertFunction, assertKey, optionsObject } from './validate.js';

/**
 * Runs `fn` only if no other replica is running it: an owner-token lease of `ttlMs`, renewed
 * every ttl/3 by compare-and-extend and released by compare-and-delete. `fn` gets the lease's
 * signal and its fencing token. If the lease is lost (a renewal fails or finds another owner, or
 * `fn` outlasts it without a renewal), the signal aborts and the result says `leaseLost`. Errors
 * thrown by `fn` propagate after the lease is released. With `waitMs`, waits for the lease
 * instead of skipping.
 *
 * @example const result = await runExclusive('search:reindex', 30_000, (signal, { fencingToken }) => reindex(signal, fencingToken));
 */
export function runExclusive<T>(
  key: string,
  ttlMs: number,
  fn: (signal: AbortSignal, lease: LeaseContext) => Promise<T> | T,
  options?: RunExclusiveOptions,
): Promise<RunResult<T>> {
  return runExclusiveWith(currentLeaseConfig(), key, ttlMs, fn, options);
}

export function runExclusiveWith<T>(
  config: LeaseConfig,
  key: string,
  ttlMs: number,
  fn: (signal: AbortSignal, lease: LeaseContext) => Promise<T> | T,
  options?: RunExclusiveOptions,
): Promise<RunResult<T>> {
  let request: ClaimRequest;
  let waitMs: number;
  let retryDelayMs: number | undefined;
  try {
    assertKey('runExclusive', 'key', key);
    const given = optionsObject('runExclusive', options);
    const timeoutMs = leaseClaimTimeout('runExclusive', config, 'ttlMs', ttlMs, given.timeoutMs);
    assertFunction('runExclusive', 'fn', fn);
    waitMs = given.waitMs ?? 0;
    retryDelayMs = given.retryDelayMs;
    if (waitMs !== 0) assertDuration('runExclusive', 'options.waitMs', waitMs);
    if (retryDelayMs !== undefined) assertDuration('runExclusive', 'options.retryDelayMs', retryDelayMs);
    request = { guard: 'runExclusive', key, storageKey: key, ttlMs, timeoutMs, fenced: true };
  } catch (error) {
    return Promise.reject(error);
  }
  const claimed = waitMs === 0 ? claimLease(config, request) : claimWaiting(config, request, waitMs, retryDelayMs);
  return claimed.then((outcome): Promise<RunResult<T>> | RunResult<T> =>
    outcome.claimed ? runHeld(outcome.lease, ttlMs, fn) : skipped(outcome.reason),
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retries the claim until it wins or `waitMs` has passed; only the final outcome is reported. */
async function claimWaiting(
  config: LeaseConfig,
  request: ClaimRequest,
  waitMs: number,
  retryDelayMs: number | undefined,
): Promise<ClaimOutcome> {
  const startedAt = performance.now();
  const giveUpAt = startedAt + waitMs;
  const baseDelay = retryDelayMs ?? Math.min(1000, Math.max(10, Math.floor(request.ttlMs / 10)));
  for (;;) {
    const outcome = await claimLease(config, request, false);
    const left = giveUpAt - performance.now();
    if (outcome.claimed || left <= 0) {
      reportClaim(config, request, outcome, startedAt);
      return outcome;
    }
    // Jitter, so replicas waiting for the same key do not retry in lockstep.
    await sleep(Math.min(left, baseDelay * (0.5 + Math.random())));
  }
}
