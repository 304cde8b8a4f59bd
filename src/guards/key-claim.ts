// The claimPeriod/claimOnce hot path: one `SET key owner NX PX` with a deadline, resolving whether
// it was won. Leases (runExclusive, runOnce) are claimed in claim-lease.ts; both share claim-call.ts.
//
// Per claim, beyond the client's own command: the backend key (one concatenation, built by the
// caller), an owner token, one object that is the call's state and its node in a deadline list,
// one promise and the two reply handlers. No clock read for the deadline (a coarse deadline
// list), none for the outcome unless an observer wants its duration, no AbortSignal unless the
// client is not connected, no request object, no message unless the deadline passes or a skip
// is logged.
import { announceLocalMode, ClaimCall, type Claimed } from './claim-call.js';
import type { GuardName, LeaseConfig } from './lease-config.js';

/**
 * Claims `backendKey` (the configured prefix, the caller's key and, for claimPeriod, its window
 * or slot) for `ttlMs`. Resolves true when this call took it; false when another replica holds
 * it or the backend did not answer within `timeoutMs` (fail closed, logged). Rejects only with
 * an InvalidArgumentError (a key the store can never hold).
 */
export function claimKey(
  config: LeaseConfig,
  guard: GuardName,
  key: string,
  backendKey: string,
  ttlMs: number,
  timeoutMs: number,
): Promise<boolean> {
  if (config.store === null) {
    announceLocalMode(config);
    config.observer?.claim(guard, key, 'local', 0);
    return Promise.resolve(true);
  }
  return new KeyClaim(config, guard, key, backendKey, timeoutMs).start(ttlMs);
}

class KeyClaim extends ClaimCall<boolean> {
  constructor(config: LeaseConfig, guard: GuardName, key: string, backendKey: string, timeoutMs: number) {
    super(config, guard, key, backendKey, timeoutMs, true, config.observer === null ? 0 : performance.now());
    // Gives up between timeoutMs and timeoutMs × 17/16 from now, without reading the clock.
    this.armCoarse(timeoutMs);
  }

  protected acquire(ttlMs: number): Promise<unknown> {
    const { store, rawAcquire } = this.config;
    return rawAcquire
      ? rawAcquire.send(this.backendKey, this.owner, ttlMs, this)
      : store!.acquire(this.backendKey, this.owner, ttlMs, this.signal());
  }

  protected claimed(reply: unknown): Claimed {
    const { rawAcquire } = this.config;
    return (rawAcquire ? rawAcquire.won(reply) : reply === true) ? undefined : null;
  }

  protected won(): boolean {
    return true;
  }

  protected skipped(): boolean {
    return false;
  }
}
