import type { SkipReason } from './lease-config.js';

/** `fn` ran (it held the lease); `leaseLost` says whether the lease was lost while it ran. */
export interface RanResult<T> {
  ran: true;
  value: T;
  /**
   * True when this holder cannot show it held the lease for the whole run: a renewal failed or
   * found another owner, the run outlasted the lease (a blocked event loop), or the release (for
   * runOnce: the keep) found the key gone or held by another owner.
   */
  leaseLost: boolean;
  /** The lease's fencing token (see LeaseContext); undefined only for a custom LeaseStore without `acquireFenced`. */
  fencingToken?: number;
  reason?: undefined;
}

/** `fn` did not run: another replica holds the key, or the backend was unavailable. */
export interface SkippedResult {
  ran: false;
  value?: undefined;
  leaseLost: false;
  fencingToken?: undefined;
  reason: SkipReason;
}

export type RunResult<T> = RanResult<T> | SkippedResult;

/** What `fn` gets beside its signal. */
export interface LeaseContext {
  /**
   * Increases per key with every acquisition, across holders (and processes, and restarts): pass
   * it with every write the job makes and let the database refuse a write carrying a smaller token
   * than it has seen (see `withFence`). undefined only for a custom LeaseStore without `acquireFenced`.
   */
  readonly fencingToken: number | undefined;
}

export function skipped(reason: SkipReason): SkippedResult {
  return { ran: false, leaseLost: false, reason };
}
