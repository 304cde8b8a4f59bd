// The one claim path every guard goes through: local mode, the deadline, fail-closed, logging,
// onSkip and events all live here so the four guards cannot drift apart.
import { BackendTimeoutError, BackendUnavailableError, InvalidArgumentError, ReplicaGuardError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import { newOwnerToken } from '../lease/owner-token.js';
import { RAW_ACQUIRE, type LeaseStore, type RawAcquire } from '../lease/store.js';
import type { GuardName, LeaseConfig, SkipReason } from './lease-config.js';
import type { ClaimOutcomeName } from './observe.js';
import { Deadline, deadlineSignal, withDeadline } from './with-deadline.js';

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
  return claimCore<ClaimOutcome>(
    config,
    request,
    report,
    (storageKey, owner, sentAt, fencingToken) => ({
      claimed: true,
      lease: { guard: request.guard, key: request.key, storageKey, owner, store: config.store, config, sentAt, fencingToken },
    }),
    (reason, error) => (error === undefined ? { claimed: false, reason } : { claimed: false, reason, error }),
  );
}

/** claimPeriod/claimOnce: the same claim, resolving whether it was won, with nothing built for a lease. */
export function claimKey(config: LeaseConfig, request: ClaimRequest): Promise<boolean> {
  return claimCore<boolean>(config, request, true, null, null);
}

type OnWon<R> = (storageKey: string, owner: string, sentAt: number, fencingToken: number | undefined) => R;
type OnSkipped<R> = (reason: SkipReason, error?: unknown) => R;

/** Reply → not claimed (null), claimed without a fencing token (undefined), or claimed with this token. */
type Claimed = number | undefined | null;

/**
 * One claim. `onWon`/`onSkipped` null: resolve true/false (the claimPeriod/claimOnce hot path,
 * which then allocates one promise, this object and two callbacks per call — no closures).
 */
function claimCore<R>(
  config: LeaseConfig,
  request: ClaimRequest,
  report: boolean,
  onWon: OnWon<R> | null,
  onSkipped: OnSkipped<R> | null,
): Promise<R> {
  const { store } = config;
  const owner = newOwnerToken();
  const storageKey = config.prefix + request.storageKey;
  const sentAt = performance.now();
  if (!store) {
    announceLocalMode(config);
    const fencingToken = request.fenced ? localFencingToken() : undefined;
    if (report) config.observer?.claim(request.guard, request.key, 'local', 0, fencingToken);
    return Promise.resolve(onWon ? onWon(storageKey, owner, sentAt, fencingToken) : (true as R));
  }
  const { ttlMs, timeoutMs } = request;
  const raw = request.fenced ? undefined : (store as { [RAW_ACQUIRE]?: RawAcquire })[RAW_ACQUIRE];
  const fenced = request.fenced === true && typeof store.acquireFenced === 'function';
  return new Promise<R>((resolve, reject) => {
    const call = new ClaimCall<R>(
      config,
      store,
      request,
      report,
      storageKey,
      owner,
      sentAt,
      raw,
      fenced,
      onWon,
      onSkipped,
      resolve,
      reject,
    );
    let pending: Promise<unknown>;
    try {
      pending = raw
        ? raw.send(storageKey, owner, ttlMs, call)
        : fenced
          ? store.acquireFenced!(storageKey, owner, ttlMs, deadlineSignal(timeoutMs))
          : store.acquire(storageKey, owner, ttlMs, deadlineSignal(timeoutMs));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (reply) => call.reply(reply),
      (error: unknown) => call.error(error),
    );
  });
}

class ClaimCall<R> extends Deadline {
  constructor(
    private readonly config: LeaseConfig,
    private readonly store: LeaseStore,
    private readonly request: ClaimRequest,
    private readonly report: boolean,
    private readonly storageKey: string,
    private readonly owner: string,
    private readonly sentAt: number,
    private readonly raw: RawAcquire | undefined,
    private readonly fenced: boolean,
    private readonly onWon: OnWon<R> | null,
    private readonly onSkipped: OnSkipped<R> | null,
    private readonly resolve: (value: R) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    super(request.timeoutMs, sentAt);
  }

  /** The deadline signal; asked for only when the store must wait for its connection. */
  signal(): AbortSignal {
    return deadlineSignal(this.request.timeoutMs);
  }

  private claimed(reply: unknown): Claimed {
    if (this.raw) return this.raw.won(reply) ? undefined : null;
    if (!this.fenced) return reply === true ? undefined : null;
    if (typeof reply !== 'number') return null;
    // 0 is a fenced store that took the key but could not hand out a token (an old table).
    if (reply === 0) warnNoFencingColumn(this.config);
    return reply > 0 ? reply : undefined;
  }

  reply(reply: unknown): void {
    const token = this.claimed(reply);
    if (!this.finish()) {
      // The claim landed after we gave up and reported a skip: give the key back.
      if (token !== null) void this.store.release(this.storageKey, this.owner).catch(() => undefined);
      return;
    }
    const { request } = this;
    if (token === null) {
      if (this.report) reportClaim(this.config, request, { claimed: false, reason: 'claimed-elsewhere' }, this.sentAt);
      this.resolve(this.onSkipped ? this.onSkipped('claimed-elsewhere') : (false as R));
      return;
    }
    if (this.report) this.config.observer?.claim(request.guard, request.key, 'won', performance.now() - this.sentAt, token);
    this.resolve(this.onWon ? this.onWon(this.storageKey, this.owner, this.sentAt, token) : (true as R));
  }

  error(cause: unknown): void {
    if (this.finish()) this.fail(cause);
  }

  timeOut(): void {
    this.fail(
      new BackendTimeoutError(`${this.store.kind} claim of "${this.storageKey}" did not complete within ${this.request.timeoutMs} ms`),
    );
  }

  private fail(cause: unknown): void {
    // A key the store can never hold is the caller's error, not an outage: no fail-closed skip.
    if (cause instanceof InvalidArgumentError) {
      this.reject(cause);
      return;
    }
    const { store } = this;
    const error =
      cause instanceof ReplicaGuardError
        ? cause
        : new BackendUnavailableError(`${store.kind} claim of "${this.storageKey}" failed: ${describeError(cause)}`, { cause });
    if (this.report) reportClaim(this.config, this.request, { claimed: false, reason: 'backend-unavailable', error }, this.sentAt);
    this.resolve(this.onSkipped ? this.onSkipped('backend-unavailable', error) : (false as R));
  }
}

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
  const where = `${request.guard}("${request.key}")`;
  if (reason === 'backend-unavailable') {
    writeLog(
      config.logger,
      'warn',
      `${where} skipped: lease backend unavailable, failing closed for "${request.storageKey}": ${describeError(error)}`,
    );
  } else {
    writeLog(config.logger, 'debug', `${where} skipped: "${request.storageKey}" is claimed by another replica`);
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
