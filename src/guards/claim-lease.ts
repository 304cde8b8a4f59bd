// Leases (runExclusive, runOnce): their claim, with an exact deadline and a fencing token, and
// their release and renewal. claimPeriod/claimOnce claim through key-claim.ts; both share the
// in-flight claim and its reporting (claim-call.ts).
import { BackendTimeoutError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import type { LeaseStore } from '../lease/store.js';
import type { GuardName, LeaseConfig } from './lease-config.js';
import { announceLocalMode, ClaimCall, type Claimed, type SkippedClaim } from './claim-call.js';
import { Deadline } from './deadline-queue.js';
import { deadlineSignal, withDeadline } from './with-deadline.js';

/** A lease this process holds. `store` is null in local mode (nothing to renew or release). */
export interface HeldLease {
  readonly guard: GuardName;
  readonly key: string;
  readonly storageKey: string;
  readonly owner: string;
  readonly store: LeaseStore | null;
  readonly config: LeaseConfig;
  /** `performance.now()` when the acquire was sent: the lease cannot expire before this + ttl. */
  readonly sentAt: number;
  /** The fencing token of a fenced acquisition. */
  readonly fencingToken: number | undefined;
}

export type ClaimOutcome = { claimed: true; lease: HeldLease } | SkippedClaim;

export interface ClaimRequest {
  guard: GuardName;
  /** The caller's key, reported to onSkip. */
  key: string;
  /** The key in the backend, before the prefix (the caller's key plus a period or slot). */
  storageKey: string;
  ttlMs: number;
  /** How long the claim may take. */
  timeoutMs: number;
  /** Take a fencing token with the lease (runExclusive, runOnce). */
  fenced?: boolean;
}

let lastLocalToken = 0;

/** Local mode's fencing tokens: increasing within the process, on the same clock scale as the stores'. */
function localFencingToken(): number {
  lastLocalToken = Math.max(lastLocalToken + 1, Date.now() * 1000);
  return lastLocalToken;
}

/**
 * Claims `request.storageKey` as a lease. `report` false leaves the outcome unreported (a waiting
 * runExclusive reports only its last attempt, through `reportClaim`).
 */
export function claimLease(config: LeaseConfig, request: ClaimRequest, report = true): Promise<ClaimOutcome> {
  // A lease's validity counts from when its acquire was sent: its deadline is exact.
  const call = new LeaseClaim(config, request, report, performance.now());
  if (config.store) {
    call.arm(request.timeoutMs, call.sentAt);
    return call.start(request.ttlMs);
  }
  // Local mode settles at once: no deadline.
  announceLocalMode(config);
  const fencingToken = request.fenced === true ? localFencingToken() : undefined;
  if (report) config.observer?.claim(request.guard, request.key, 'local', 0, fencingToken);
  return Promise.resolve(call.wonWith(fencingToken));
}

class LeaseClaim extends ClaimCall<ClaimOutcome> {
  private readonly fenced: boolean;

  constructor(config: LeaseConfig, request: ClaimRequest, report: boolean, sentAt: number) {
    super(config, request.guard, request.key, config.prefix + request.storageKey, request.timeoutMs, report, sentAt);
    this.fenced = request.fenced === true && typeof config.store?.acquireFenced === 'function';
  }

  protected acquire(ttlMs: number): Promise<unknown> {
    const store = this.config.store!;
    return this.fenced
      ? store.acquireFenced!(this.backendKey, this.owner, ttlMs, this.signal())
      : store.acquire(this.backendKey, this.owner, ttlMs, this.signal());
  }

  protected claimed(reply: unknown): Claimed {
    if (!this.fenced) return reply === true ? undefined : null;
    if (typeof reply !== 'number') return null;
    // 0 is a fenced store that took the key but could not hand out a token (an old table).
    if (reply === 0) warnNoFencingColumn(this.config);
    return reply > 0 ? reply : undefined;
  }

  protected won(fencingToken: number | undefined): ClaimOutcome {
    return this.wonWith(fencingToken);
  }

  wonWith(fencingToken: number | undefined): ClaimOutcome {
    const { config } = this;
    return {
      claimed: true,
      lease: {
        guard: this.guard,
        key: this.key,
        storageKey: this.backendKey,
        owner: this.owner,
        store: config.store,
        config,
        sentAt: this.sentAt,
        fencingToken,
      },
    };
  }

  protected skipped(outcome: SkippedClaim): ClaimOutcome {
    return outcome;
  }
}

/**
 * Compare-and-delete; never throws. true: the lease was still ours and live; false: it was not
 * (expired, or another owner holds the key); undefined: the backend did not answer (it expires by itself).
 */
export function releaseLease(lease: HeldLease): Promise<boolean | undefined> {
  const { store } = lease;
  if (!store) return Promise.resolve(true);
  return new Promise<boolean | undefined>((resolve) => {
    const call = new ReleaseCall(lease, store, resolve);
    let pending: Promise<boolean>;
    try {
      pending = store.release(lease.storageKey, lease.owner, deadlineSignal(lease.config.timeoutMs));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (released) => call.released(released),
      (error: unknown) => call.failed(error),
    );
  });
}

class ReleaseCall extends Deadline {
  constructor(
    private readonly lease: HeldLease,
    private readonly store: LeaseStore,
    private readonly resolve: (released: boolean | undefined) => void,
  ) {
    super(lease.config.timeoutMs);
  }

  released(released: boolean): void {
    if (this.finish()) this.resolve(released);
  }

  failed(error: unknown): void {
    if (this.finish()) this.giveUp(error);
  }

  timeOut(): void {
    this.giveUp(
      new BackendTimeoutError(
        `${this.store.kind} release of "${this.lease.storageKey}" did not complete within ${this.lease.config.timeoutMs} ms`,
      ),
    );
  }

  private giveUp(error: unknown): void {
    const { lease } = this;
    writeLog(
      lease.config.logger,
      'warn',
      `${lease.guard}("${lease.key}"): could not release "${lease.storageKey}", it expires by itself: ${describeError(error)}`,
    );
    this.resolve(undefined);
  }
}

/** Compare-and-extend; rejects on backend errors and timeouts. */
export function extendLease(lease: HeldLease, ttlMs: number, timeoutMs = lease.config.timeoutMs): Promise<boolean> {
  const { store } = lease;
  if (!store) return Promise.resolve(true);
  return withDeadline(
    timeoutMs,
    () => `${store.kind} renewal of "${lease.storageKey}"`,
    (signal) => store.extend(lease.storageKey, lease.owner, ttlMs, signal),
  );
}

function warnNoFencingColumn(config: LeaseConfig): void {
  if (config.fencingWarned) return;
  config.fencingWarned = true;
  writeLog(
    config.logger,
    'warn',
    'the PostgreSQL lease table has no "fence" column: leases carry no fencing token until its migration is run again (leaseTableStatements() adds the column)',
  );
}
