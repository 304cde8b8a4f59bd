// The one claim path every guard goes through: local mode, the deadline, fail-closed, logging,
// onSkip and events all live here so the four guards cannot drift apart.
import { BackendTimeoutError, BackendUnavailableError, InvalidArgumentError, ReplicaGuardError } from '../errors.js';
import { describeError, logs, writeLog } from '../logger.js';
import { newOwnerToken } from '../lease/owner-token.js';
import type { LeaseStore } from '../lease/store.js';
import type { GuardName, LeaseConfig, SkipReason } from './lease-config.js';
import type { ClaimOutcomeName } from './observe.js';
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

export type ClaimOutcome = { claimed: true; lease: HeldLease } | { claimed: false; reason: SkipReason; error?: unknown };

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
 * Claims `request.storageKey`. `report` false leaves the outcome unreported (a waiting
 * runExclusive reports only its last attempt, through `reportClaim`).
 */
export function claimLease(config: LeaseConfig, request: ClaimRequest, report = true): Promise<ClaimOutcome> {
  return claimCore(
    config,
    report ? LEASE : LEASE_UNREPORTED,
    request.guard,
    request.key,
    request.storageKey,
    request.ttlMs,
    request.timeoutMs,
    request.fenced === true,
  );
}

/**
 * claimPeriod/claimOnce: the same claim, resolving whether it was won, with nothing built for a
 * lease. Takes the request's parts (no request object per call).
 */
export function claimKey(
  config: LeaseConfig,
  guard: GuardName,
  key: string,
  storageKey: string,
  ttlMs: number,
  timeoutMs: number,
): Promise<boolean> {
  return claimCore(config, KEY, guard, key, storageKey, ttlMs, timeoutMs, false);
}

/** What a claim resolves: whether it was won (claimPeriod/claimOnce), or the outcome with the lease. */
interface ClaimResult<R> {
  /** Report the outcome (log, onSkip, events) when the call settles. */
  readonly report: boolean;
  /** A lease's validity counts from when its acquire was sent: read the clock even without an observer. */
  readonly timed: boolean;
  won(call: ClaimCall<R>, fencingToken: number | undefined): R;
  skipped(reason: SkipReason, error?: unknown): R;
}

const KEY: ClaimResult<boolean> = { report: true, timed: false, won: () => true, skipped: () => false };

const leaseWon = (call: ClaimCall<ClaimOutcome>, fencingToken: number | undefined): ClaimOutcome => {
  const { config } = call;
  return {
    claimed: true,
    lease: {
      guard: call.guard,
      key: call.key,
      storageKey: call.backendKey,
      owner: call.owner,
      store: config.store,
      config,
      sentAt: call.sentAt,
      fencingToken,
    },
  };
};
const leaseSkipped = (reason: SkipReason, error?: unknown): ClaimOutcome =>
  error === undefined ? { claimed: false, reason } : { claimed: false, reason, error };
const LEASE: ClaimResult<ClaimOutcome> = { report: true, timed: true, won: leaseWon, skipped: leaseSkipped };
const LEASE_UNREPORTED: ClaimResult<ClaimOutcome> = { report: false, timed: true, won: leaseWon, skipped: leaseSkipped };

/** Reply → not claimed (null), claimed without a fencing token (undefined), or claimed with this token. */
type Claimed = number | undefined | null;

// `new Promise` runs its executor at once: the call being built hands itself over in this slot,
// so the executor is one shared function instead of a closure per claim.
let binding: { resolve: (value: never) => void; reject: (error: unknown) => void } | undefined;
function bindResolvers(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  binding!.resolve = resolve;
  binding!.reject = reject;
}

/**
 * One claim. The claimPeriod/claimOnce hot path allocates one promise, one call object and its
 * two reply handlers, and reads no clock unless an observer wants the claim's duration.
 */
function claimCore<R>(
  config: LeaseConfig,
  result: ClaimResult<R>,
  guard: GuardName,
  key: string,
  storageKey: string,
  ttlMs: number,
  timeoutMs: number,
  fenced: boolean,
): Promise<R> {
  const { store } = config;
  const sentAt = result.timed || config.observer !== null ? performance.now() : 0;
  const call = new ClaimCall(config, result, guard, key, storageKey, ttlMs, timeoutMs, fenced, sentAt, store !== null);
  if (!store) {
    announceLocalMode(config);
    const fencingToken = fenced ? localFencingToken() : undefined;
    if (result.report) config.observer?.claim(guard, key, 'local', 0, fencingToken);
    return Promise.resolve(result.won(call, fencingToken));
  }
  binding = call;
  const promise = new Promise<R>(bindResolvers);
  binding = undefined;
  const raw = fenced ? undefined : config.rawAcquire;
  let pending: Promise<unknown>;
  try {
    pending = raw
      ? raw.send(call.backendKey, call.owner, ttlMs, call)
      : fenced && typeof store.acquireFenced === 'function'
        ? store.acquireFenced(call.backendKey, call.owner, ttlMs, deadlineSignal(timeoutMs))
        : store.acquire(call.backendKey, call.owner, ttlMs, deadlineSignal(timeoutMs));
  } catch (error) {
    pending = Promise.reject(error);
  }
  pending.then(
    (reply) => call.reply(reply),
    (error: unknown) => call.error(error),
  );
  return promise;
}

/** A claim in flight; it is also the request it was made for (reported to onSkip and events). */
class ClaimCall<R> extends Deadline implements ClaimRequest {
  /** The key in the backend (with the prefix). */
  readonly backendKey: string;
  readonly owner: string;
  resolve!: (value: R) => void;
  reject!: (error: unknown) => void;

  constructor(
    readonly config: LeaseConfig,
    private readonly result: ClaimResult<R>,
    readonly guard: GuardName,
    readonly key: string,
    readonly storageKey: string,
    readonly ttlMs: number,
    readonly timeoutMs: number,
    readonly fenced: boolean,
    readonly sentAt: number,
    armed: boolean,
  ) {
    super();
    // Local mode settles at once: no deadline. A lease counts from `sentAt`, so its claim's
    // deadline is exact; a plain claim's may pass a sixteenth of the timeout late (no clock read).
    if (armed) {
      if (result.timed) this.arm(timeoutMs, sentAt);
      else this.armCoarse(timeoutMs);
    }
    this.backendKey = config.prefix + storageKey;
    this.owner = newOwnerToken();
  }

  /** The deadline signal; asked for only when the store must wait for its connection. */
  signal(): AbortSignal {
    return deadlineSignal(this.timeoutMs);
  }

  private claimed(reply: unknown): Claimed {
    const { store, rawAcquire } = this.config;
    if (!this.fenced && rawAcquire) return rawAcquire.won(reply) ? undefined : null;
    if (!this.fenced || typeof store!.acquireFenced !== 'function') return reply === true ? undefined : null;
    if (typeof reply !== 'number') return null;
    // 0 is a fenced store that took the key but could not hand out a token (an old table).
    if (reply === 0) warnNoFencingColumn(this.config);
    return reply > 0 ? reply : undefined;
  }

  reply(reply: unknown): void {
    const token = this.claimed(reply);
    if (!this.finish()) {
      // The claim landed after we gave up and reported a skip: give the key back.
      if (token !== null) void this.config.store!.release(this.backendKey, this.owner).catch(() => undefined);
      return;
    }
    const { result } = this;
    if (token === null) {
      if (result.report) reportClaim(this.config, this, CLAIMED_ELSEWHERE, this.sentAt);
      this.resolve(result.skipped('claimed-elsewhere'));
      return;
    }
    if (result.report) this.config.observer?.claim(this.guard, this.key, 'won', performance.now() - this.sentAt, token);
    this.resolve(result.won(this, token));
  }

  error(cause: unknown): void {
    if (this.finish()) this.fail(cause);
  }

  timeOut(): void {
    this.fail(
      new BackendTimeoutError(`${this.config.store!.kind} claim of "${this.backendKey}" did not complete within ${this.timeoutMs} ms`),
    );
  }

  private fail(cause: unknown): void {
    // A key the store can never hold is the caller's error, not an outage: no fail-closed skip.
    if (cause instanceof InvalidArgumentError) {
      this.reject(cause);
      return;
    }
    const error =
      cause instanceof ReplicaGuardError
        ? cause
        : new BackendUnavailableError(`${this.config.store!.kind} claim of "${this.backendKey}" failed: ${describeError(cause)}`, {
            cause,
          });
    if (this.result.report) reportClaim(this.config, this, { claimed: false, reason: 'backend-unavailable', error }, this.sentAt);
    this.resolve(this.result.skipped('backend-unavailable', error));
  }
}

const CLAIMED_ELSEWHERE: ClaimOutcome = Object.freeze({ claimed: false, reason: 'claimed-elsewhere' });

/** Logs, calls onSkip and emits the claim event for an outcome. */
export function reportClaim(config: LeaseConfig, request: ClaimRequest, outcome: ClaimOutcome, startedAt: number): void {
  const { observer } = config;
  if (outcome.claimed) {
    observer?.claim(request.guard, request.key, 'won', performance.now() - startedAt, outcome.lease.fencingToken);
    return;
  }
  const { reason, error } = outcome;
  const name: ClaimOutcomeName = reason === 'claimed-elsewhere' ? 'held-elsewhere' : 'backend-unavailable';
  observer?.claim(request.guard, request.key, name, performance.now() - startedAt, undefined, error);
  if (reason === 'backend-unavailable') {
    writeLog(
      config.logger,
      'warn',
      `${request.guard}("${request.key}") skipped: lease backend unavailable, failing closed for "${request.storageKey}": ${describeError(error)}`,
    );
  } else if (logs(config.logger, 'debug')) {
    // The usual answer on every replica but one: no line is built for a logger without debug.
    writeLog(config.logger, 'debug', `${request.guard}("${request.key}") skipped: "${request.storageKey}" is claimed by another replica`);
  }
  if (!config.onSkip) return;
  try {
    const returned: unknown = config.onSkip(
      error === undefined ? { guard: request.guard, key: request.key, reason } : { guard: request.guard, key: request.key, reason, error },
    );
    if (returned instanceof Promise) returned.catch((hookError: unknown) => logHookError(config, hookError));
  } catch (hookError) {
    logHookError(config, hookError);
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

function logHookError(config: LeaseConfig, error: unknown): void {
  writeLog(config.logger, 'error', `onSkip hook threw: ${describeError(error)}`);
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

function announceLocalMode(config: LeaseConfig): void {
  if (config.localModeAnnounced) return;
  config.localModeAnnounced = true;
  if (process.env.NODE_ENV === 'production') {
    writeLog(
      config.logger,
      'warn',
      'WARNING: no lease client is set and NODE_ENV=production. Every claim succeeds, so EVERY REPLICA RUNS EVERY GUARDED JOB. Call setLeaseClient(redis) at startup.',
    );
  } else {
    writeLog(
      config.logger,
      'info',
      'no lease client set (local mode): every claim succeeds. Call setLeaseClient(redis) when running more than one replica.',
    );
  }
}
