/** Per-call options every guard accepts. */
export interface GuardOptions {
  /** Overrides setLeaseClient's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** Options of the guards that key on time (claimPeriod, runOnce). */
export interface TimedGuardOptions extends GuardOptions {
  /** The current time in epoch ms, instead of Date.now() (tests, replays). */
  now?: number;
}
