import { runExclusive } from 'replica-guard';

/** Runs one sweep at a time across the replicas: the lease is named after the sweep. */
export function underSweepLease(sweep: string, work: () => Promise<void>) {
  return runExclusive(`sweep:${sweep}`, 60_000, work);
}
