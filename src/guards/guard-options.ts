/** Per-call options every guard accepts. */
export interface GuardOptions {
  /** Overrides setLeaseClient's (or createGuards') `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** Options of the guards that key on time (claimPeriod, runOnce). */
export interface TimedGuardOptions extends GuardOptions {
  /** The current time in epoch ms, instead of Date.now() (tests, replays). */
  now?: number;
}

/** Options of runExclusive. */
export interface RunExclusiveOptions extends GuardOptions {
  /**
   * Wait up to this long for the lease instead of skipping: while another replica holds it (or
   * the backend is unavailable), retry until the lease is ours or the wait ends. Default 0 (skip).
   */
  waitMs?: number;
  /** Between two attempts while waiting, ms. Default: a tenth of the ttl, between 10 and 1000, with jitter. */
  retryDelayMs?: number;
}
