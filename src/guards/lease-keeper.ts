// Keeps a held lease alive while its job runs: compare-and-extend every ttl/3. The lease counts as
// ours only until `confirmed + ttl - margin`, where `confirmed` is when the last successful
// acquire or renewal was SENT (the backend's expiry cannot come earlier) and the margin is a
// fifth of the ttl. A renewal must answer before that point; one that finds another owner, fails
// or is too late aborts the job's signal — at least ttl/5 before the lease can expire on the
// backend, whatever the ttl — and renewal stops: a lease we may no longer own is never extended.
//
// The renewal timer is a node in the shared deadline lists (no setTimeout per lease).
import { getEventListeners } from 'node:events';
import { LeaseLostError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import { extendLease, type HeldLease } from './claim-lease.js';
import type { LeaseLossReason } from './observe.js';
import { Deadline } from './deadline-queue.js';

/** The part of the ttl kept between the abort and the earliest possible expiry on the backend. */
export function safetyMarginMs(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs / 5));
}

/** How long after an acquire (or renewal) was sent the lease still counts as ours. */
export function validForMs(ttlMs: number): number {
  return ttlMs - safetyMarginMs(ttlMs);
}

// Creating an AbortController is the largest CPU cost of a lease on Node 20 (its signal is an
// EventTarget whose prototype is swapped at creation). A run whose signal was never aborted and
// carries no 'abort' listener when the run is over leaves nothing that could tell two runs apart
// except a reference kept past the run — and work still going after its run has no lease, so
// aborting it along with a later run's loss is harmless. Such controllers are reused; any other
// is dropped.
const idleControllers: AbortController[] = [];
const MAX_IDLE_CONTROLLERS = 64;

export class LeaseKeeper extends Deadline {
  private readonly controller = idleControllers.pop() ?? new AbortController();
  private readonly validMs: number;
  private readonly intervalMs: number;
  private validUntil: number;
  private isLost = false;
  private stopped = false;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly lease: HeldLease,
    private readonly ttlMs: number,
  ) {
    super();
    this.validMs = validForMs(ttlMs);
    this.validUntil = lease.sentAt + this.validMs;
    this.intervalMs = Math.max(1, Math.floor(ttlMs / 3));
    // Local mode: nothing to renew, nothing can be lost.
    if (lease.store) this.arm(this.intervalMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the lease was lost (the signal is aborted). */
  lost(): boolean {
    return this.isLost;
  }

  /** True when, at `now` (performance.now()), no confirmed lease time covers this moment any more. */
  lapsed(now: number): boolean {
    return this.lease.store !== null && now > this.validUntil;
  }

  /** Marks the lease lost (logs, emits, aborts the signal) unless it already was. */
  lose(reason: LeaseLossReason, error: LeaseLostError): void {
    if (this.isLost) return;
    this.isLost = true;
    const { lease } = this;
    writeLog(lease.config.logger, 'warn', `${lease.guard}("${lease.key}"): ${error.message}; aborting the job's signal`);
    lease.config.observer?.leaseLost(lease.guard, lease.key, reason, lease.fencingToken);
    this.controller.abort(error);
  }

  /** Stops renewing; resolves once a renewal in flight is done (null when none is), so nothing touches the key afterwards. */
  stop(): Promise<void> | null {
    this.stopped = true;
    this.finish();
    return this.inFlight;
  }

  timeOut(): void {
    this.inFlight = this.renew();
  }

  /** After the run (stopped, nothing in flight): hands an untouched controller back for the next lease. */
  recycle(): void {
    const { signal } = this.controller;
    if (signal.aborted || idleControllers.length >= MAX_IDLE_CONTROLLERS || getEventListeners(signal, 'abort').length > 0) return;
    idleControllers.push(this.controller);
  }

  private async renew(): Promise<void> {
    const { lease } = this;
    const { observer } = lease.config;
    const sentAt = performance.now();
    const budget = Math.floor(this.validUntil - sentAt);
    if (budget < 1) {
      // The timer fired too late (a blocked event loop): the lease may already be gone.
      this.lose('expired', new LeaseLostError(`lease "${lease.storageKey}" ran past its safety margin before it could be renewed`));
      return;
    }
    try {
      const extended = await extendLease(lease, this.ttlMs, Math.min(lease.config.timeoutMs, budget));
      observer?.renewal(lease.guard, lease.key, extended, performance.now() - sentAt);
      if (!extended) {
        this.lose('taken-over', new LeaseLostError(`lease "${lease.storageKey}" expired or is held by another owner`));
        return;
      }
      this.validUntil = sentAt + this.validMs;
      if (!this.stopped) this.arm(this.intervalMs);
    } catch (error) {
      observer?.renewal(lease.guard, lease.key, false, performance.now() - sentAt, error);
      this.lose('renewal-failed', new LeaseLostError(`renewal of "${lease.storageKey}" failed: ${describeError(error)}`, { cause: error }));
    }
  }
}
