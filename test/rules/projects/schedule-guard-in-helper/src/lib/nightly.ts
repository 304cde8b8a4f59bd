import { runExclusive } from 'replica-guard';

/** Runs a nightly job on one replica: the lease is named after the job. */
export function runNightly(job: string, work: () => Promise<void>) {
  return runExclusive(`nightly:${job}`, 30 * 60 * 1000, work);
}
