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
  /** Deletes `key`, only if `owner` still holds it. */
  release(key: string, owner: string, signal?: AbortSignal): Promise<boolean>;
}
