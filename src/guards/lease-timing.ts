import { InvalidArgumentError } from '../errors.js';
import type { LeaseConfig } from './lease-config.js';
import { validForMs } from './lease-keeper.js';
import { assertDuration, assertPositiveInteger } from './validate.js';

/** The shortest lease runExclusive/runOnce accept: below it no safety margin is left. */
export const MIN_LEASE_MS = 10;

/**
 * The claim timeout of a lease of `ttlMs`: the answer must arrive while the lease still counts
 * as ours (4/5 of the ttl after it was sent). A per-call `timeoutMs` longer than that is an
 * argument error; the instance's default is capped to it.
 */
export function leaseClaimTimeout(fn: string, config: LeaseConfig, ttlName: string, ttlMs: unknown, timeoutMs: unknown): number {
  assertDuration(fn, ttlName, ttlMs);
  if (ttlMs < MIN_LEASE_MS) throw new InvalidArgumentError(`${fn}: ${ttlName} must be at least ${MIN_LEASE_MS} ms, got ${ttlMs}`);
  const validMs = validForMs(ttlMs);
  if (timeoutMs === undefined) return Math.min(config.timeoutMs, validMs);
  assertPositiveInteger(fn, 'options.timeoutMs', timeoutMs);
  if (timeoutMs > validMs) {
    throw new InvalidArgumentError(
      `${fn}: ${ttlName} of ${ttlMs} ms is too short for options.timeoutMs of ${timeoutMs} ms: a lease must be answered within 4/5 of its ttl ` +
        `(a fifth is kept as a safety margin before expiry), so use ${ttlName} >= ${Math.ceil((timeoutMs * 5) / 4)} or a shorter timeoutMs`,
    );
  }
  return timeoutMs;
}
