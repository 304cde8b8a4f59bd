// Keeps a held lease alive while its job runs: compare-and-extend every ttl/3. The lease counts as
// ours only until `confirmed + ttl - margin`, where `confirmed` is when the last successful
// acquire or renewal was SENT (the backend's expiry cannot come earlier) and the margin is a
// fifth of the ttl. A renewal must answer before that point; one that finds another owner, fails
// or is too late aborts the job's signal — at least ttl/5 before the lease can expire on the
// backend, whatever the ttl — and renewal stops: a lease we may no longer own is never extended.
import { LeaseLostError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import { extendLease, type HeldLease } from './claim-lease.js';
import type { LeaseLossReason } from './observe.js';

/** The part of the ttl kept between the abort and the earliest possible expiry on the backend. */
export function safetyMarginMs(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs / 5));
}

/** How long after an acquire (or renewal) was sent the lease still counts as ours. */
export function validForMs(ttlMs: number): number {
  return ttlMs - safetyMarginMs(ttlMs);
}

export interface LeaseKeeper {
  readonly signal: AbortSignal;
  /** True once the lease was lost (the signal is aborted). */
  lost(): boolean;
  /** True when, at `now` (performance.now()), no confirmed lease time covers this moment any more. */
  lapsed(now: number): boolean;
  /** Marks the lease lost (logs, emits, aborts the signal) unless it already was. */
  lose(reason: LeaseLossReason, error: LeaseLostError): void;
  /** Stops renewing and waits for a renewal in flight, so nothing touches the key afterwards. */
  stop(): Promise<void>;
}

export function keepLease(lease: HeldLease, ttlMs: number): LeaseKeeper {
  const controller = new AbortController();
  let isLost = false;
  const lose = (reason: LeaseLossReason, error: LeaseLostError) => {
    if (isLost) return;
    isLost = true;
    writeLog(lease.config.logger, 'warn', `${lease.guard}("${lease.key}"): ${error.message}; aborting the job's signal`);
    lease.config.observer?.leaseLost(lease.guard, lease.key, reason, lease.fencingToken);
    controller.abort(error);
  };
  const validMs = validForMs(ttlMs);
  let validUntil = lease.sentAt + validMs;
  if (!lease.store) {
    return { signal: controller.signal, lost: () => isLost, lapsed: () => false, lose, stop: async () => undefined };
  }
  const intervalMs = Math.max(1, Math.floor(ttlMs / 3));
  const { observer } = lease.config;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const renew = async () => {
    const sentAt = performance.now();
    const budget = Math.floor(validUntil - sentAt);
    if (budget < 1) {
      // The timer fired too late (a blocked event loop): the lease may already be gone.
      lose('expired', new LeaseLostError(`lease "${lease.storageKey}" ran past its safety margin before it could be renewed`));
      return;
    }
    try {
      const extended = await extendLease(lease, ttlMs, Math.min(lease.config.timeoutMs, budget));
      observer?.renewal(lease.guard, lease.key, extended, performance.now() - sentAt);
      if (!extended) {
        lose('taken-over', new LeaseLostError(`lease "${lease.storageKey}" expired or is held by another owner`));
        return;
      }
      validUntil = sentAt + validMs;
      schedule();
    } catch (error) {
      observer?.renewal(lease.guard, lease.key, false, performance.now() - sentAt, error);
      lose('renewal-failed', new LeaseLostError(`renewal of "${lease.storageKey}" failed: ${describeError(error)}`, { cause: error }));
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
    lapsed: (now) => now > validUntil,
    lose,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
