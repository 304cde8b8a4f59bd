import type { SkipReason } from './lease-config.js';

/** `fn` ran (it held the lease); `leaseLost` says whether the lease was lost while it ran. */
export interface RanResult<T> {
  ran: true;
  value: T;
  leaseLost: boolean;
  reason?: undefined;
}

/** `fn` did not run: another replica holds the key, or the backend was unavailable. */
export interface SkippedResult {
  ran: false;
  value?: undefined;
  leaseLost: false;
  reason: SkipReason;
}

export type RunResult<T> = RanResult<T> | SkippedResult;

export function skipped(reason: SkipReason): SkippedResult {
  return { ran: false, leaseLost: false, reason };
}
