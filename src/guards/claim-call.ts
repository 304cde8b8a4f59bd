// What every claim in flight shares — plain claims (claimPeriod/claimOnce, key-claim.ts) and
// leases (runExclusive/runOnce, claim-lease.ts): its deadline, the late reply given back, fail
// closed on errors and timeouts, and the one way outcomes are logged, passed to onSkip and
// observed, so the four guards cannot drift apart.
import { BackendTimeoutError, BackendUnavailableError, InvalidArgumentError, ReplicaGuardError } from '../errors.js';
import { describeError, logs, writeLog } from '../logger.js';
import { newOwnerToken } from '../lease/owner-token.js';
import type { GuardName, LeaseConfig, SkipReason } from './lease-config.js';
import type { ClaimOutcomeName } from './observe.js';
import { Deadline } from './deadline-queue.js';
import { deadlineSignal } from './with-deadline.js';

/** A claim that did not win. */
export interface SkippedClaim {
  claimed: false;
  reason: SkipReason;
  error?: unknown;
}

/** What reportClaim needs of an outcome: a won claim's fencing token, or why it was skipped. */
export type ReportedOutcome = { claimed: true; lease: { readonly fencingToken: number | undefined } } | SkippedClaim;

/** What reportClaim needs of a request. */
export interface ReportedRequest {
  readonly guard: GuardName;
  /** The caller's key, reported to onSkip. */
  readonly key: string;
  /** The key in the backend, before the prefix (the caller's key plus a period or slot). */
  readonly storageKey: string;
}

const CLAIMED_ELSEWHERE: SkippedClaim = Object.freeze({ claimed: false, reason: 'claimed-elsewhere' });

/** Reply → not claimed (null), claimed without a fencing token (undefined), or claimed with this token. */
export type Claimed = number | undefined | null;

// `new Promise` runs its executor at once: the call being built hands itself over in this slot,
// so the executor is one shared function instead of a closure per claim.
let binding: { resolve: (value: never) => void; reject: (error: unknown) => void } | undefined;
function bindResolvers(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  binding!.resolve = resolve;
  binding!.reject = reject;
}

/** A new promise whose resolvers `call` holds. */
function settledBy<R>(call: { resolve: (value: R) => void; reject: (error: unknown) => void }): Promise<R> {
  binding = call;
  const promise = new Promise<R>(bindResolvers);
  binding = undefined;
  return promise;
}

/**
 * A claim in flight: its state, its node in a deadline list and the request its skips are
 * reported with. Subclasses say what a reply means and what the caller gets.
 */
export abstract class ClaimCall<R> extends Deadline implements ReportedRequest {
  readonly owner: string = newOwnerToken();
  resolve!: (value: R) => void;
  reject!: (error: unknown) => void;

  constructor(
    readonly config: LeaseConfig,
    readonly guard: GuardName,
    readonly key: string,
    /** The key in the backend (with the prefix). */
    readonly backendKey: string,
    readonly timeoutMs: number,
    /** Report the outcome (log, onSkip, events) when the call settles. */
    private readonly report: boolean,
    /** `performance.now()` when the acquire was sent (0 when nothing needs it). */
    readonly sentAt: number,
  ) {
    super();
  }

  /** The key in the backend without the prefix, for log lines (built only when one is written). */
  get storageKey(): string {
    return this.backendKey.slice(this.config.prefix.length);
  }

  /** The deadline signal; asked for only when the store must wait for its connection. */
  signal(): AbortSignal {
    return deadlineSignal(this.timeoutMs);
  }

  /** Sends the acquire and returns the promise the caller gets (one shared executor, no closure but the two reply handlers). */
  start(ttlMs: number): Promise<R> {
    const promise = settledBy(this);
    let pending: Promise<unknown>;
    try {
      pending = this.acquire(ttlMs);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (reply) => this.reply(reply),
      (error: unknown) => this.error(error),
    );
    return promise;
  }

  /** The store's acquire of `backendKey` for `owner`. */
  protected abstract acquire(ttlMs: number): Promise<unknown>;
  protected abstract claimed(reply: unknown): Claimed;
  protected abstract won(fencingToken: number | undefined): R;
  protected abstract skipped(outcome: SkippedClaim): R;

  private reply(reply: unknown): void {
    const token = this.claimed(reply);
    if (!this.finish()) {
      // The claim landed after we gave up and reported a skip: give the key back.
      if (token !== null) void this.config.store!.release(this.backendKey, this.owner).catch(() => undefined);
      return;
    }
    if (token === null) {
      if (this.report) reportClaim(this.config, this, CLAIMED_ELSEWHERE, this.sentAt);
      this.resolve(this.skipped(CLAIMED_ELSEWHERE));
      return;
    }
    if (this.report) this.config.observer?.claim(this.guard, this.key, 'won', performance.now() - this.sentAt, token);
    this.resolve(this.won(token));
  }

  private error(cause: unknown): void {
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
    const outcome: SkippedClaim = { claimed: false, reason: 'backend-unavailable', error };
    if (this.report) reportClaim(this.config, this, outcome, this.sentAt);
    this.resolve(this.skipped(outcome));
  }
}

/** Logs, calls onSkip and emits the claim event for an outcome. */
export function reportClaim(config: LeaseConfig, request: ReportedRequest, outcome: ReportedOutcome, startedAt: number): void {
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

function logHookError(config: LeaseConfig, error: unknown): void {
  writeLog(config.logger, 'error', `onSkip hook threw: ${describeError(error)}`);
}

/** Says once per configuration that there is no lease backend (every claim succeeds). */
export function announceLocalMode(config: LeaseConfig): void {
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
