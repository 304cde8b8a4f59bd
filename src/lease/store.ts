// The one interface every lease backend (Redis, PostgreSQL) implements. Each method is one
// atomic operation on the backend (one round trip); the guards layer adds timeouts, logging and
// fail-closed behaviour on top, so stores stay small.
//
// Every method takes an optional `signal`: it aborts once `timeoutMs` has run out. A store
// that has not yet sent the operation when the signal aborts must not send it at all (so a
// reconnecting client cannot run a claim minutes later); once sent, it may simply finish.

export interface LeaseStore {
  /** `'redis'` or `'postgres'`, for logs and errors. */
  readonly kind: string;
  /**
   * Sets `key` to `owner` for `ttlMs` if the key is absent (or its lease has expired).
   * Resolves true when this call took the key, false when someone else holds it.
   */
  acquire(key: string, owner: string, ttlMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Extends `key`'s lease to `ttlMs` from now, only if `owner` still holds it. */
  extend(key: string, owner: string, ttlMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Deletes `key`, only if `owner` still holds it; resolves true when it did (the lease was still ours and live). */
  release(key: string, owner: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * Optional: `acquire` that also hands out a fencing token, in the same round trip. Resolves the
   * token (a safe integer larger than every token handed out earlier for `key`) when this call
   * took the key, null when someone else holds it. Without it, leases carry no token.
   */
  acquireFenced?(key: string, owner: string, ttlMs: number, signal?: AbortSignal): Promise<number | null>;
  /**
   * Optional: keeps a finished job's key for `ttlMs` (runOnce after success). `'held'`: `owner`
   * still held it; `'restored'`: it had expired and nobody took it, so it is set again for
   * `owner`; `'lost'`: another owner holds it (left untouched). Without it, `extend` is used.
   */
  keep?(key: string, owner: string, ttlMs: number, signal?: AbortSignal): Promise<KeepOutcome>;
}

export type KeepOutcome = 'held' | 'restored' | 'lost';

/**
 * Internal, not part of the LeaseStore contract: a store's plain acquire without its boolean
 * mapping, for the claimPeriod/claimOnce hot path. `send` resolves the backend's raw reply;
 * `won(reply)` says whether it took the key. `deadline.signal()` is asked for only if the store must wait.
 */
export const RAW_ACQUIRE: unique symbol = Symbol.for('replica-guard.rawAcquire') as never;

export interface RawAcquire {
  send(key: string, owner: string, ttlMs: number, deadline: { signal(): AbortSignal }): Promise<unknown>;
  won(reply: unknown): boolean;
}
