// Keeps a held lease alive while its job runs: compare-and-extend every ttl/3. The first renewal
// that finds another owner (or fails, or times out) aborts the job's signal and renewal stops —
// a lease we may no longer own is never extended again.
import { LeaseLostError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import { extendLease, type HeldLease } from './claim-lease.js';

export interface LeaseKeeper {
  readonly signal: AbortSignal;
  /** True once the lease was lost (the signal is aborted). */
  lost(): boolean;
  /** Stops renewing and waits for a renewal in flight, so nothing touches the key afterwards. */
  stop(): Promise<void>;
}

export function keepLease(lease: HeldLease, ttlMs: number): LeaseKeeper {
  const controller = new AbortController();
  if (!lease.store) return { signal: controller.signal, lost: () => false, stop: async () => undefined };
  const intervalMs = Math.max(1, Math.floor(ttlMs / 3));
  // A renewal starts ~ttl/3 after the last one, so the lease has ~2/3 ttl left: a renewal slower
  // than that would land on an expired lease; treat it as failed.
  const renewalTimeoutMs = Math.max(1, Math.min(lease.config.timeoutMs, ttlMs - intervalMs));
  let stopped = false;
  let isLost = false;
  let inFlight: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const lose = (error: LeaseLostError) => {
    if (isLost) return;
    isLost = true;
    writeLog(lease.config.logger, 'warn', `${lease.guard}("${lease.key}"): ${error.message}; aborting the job's signal`);
    controller.abort(error);
  };

  const renew = async () => {
    try {
      const extended = await extendLease(lease, ttlMs, renewalTimeoutMs);
      if (!extended) lose(new LeaseLostError(`lease "${lease.storageKey}" expired or is held by another owner`));
      else schedule();
    } catch (error) {
      lose(new LeaseLostError(`renewal of "${lease.storageKey}" failed: ${describeError(error)}`, { cause: error }));
    }
  };

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = renew();
    }, intervalMs);
    // The job keeps the process alive if it needs to; renewal alone must not.
    timer.unref();
  }

  schedule();
  return {
    signal: controller.signal,
    lost: () => isLost,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
