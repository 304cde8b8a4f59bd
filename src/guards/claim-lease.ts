// The one claim path every guard goes through: local mode, the deadline, fail-closed, logging,
// onSkip and events all live here so the four guards cannot drift apart.
import { BackendUnavailableError, InvalidArgumentError, ReplicaGuardError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import { newOwnerToken } from '../lease/owner-token.js';
import type { LeaseStore } from '../lease/store.js';
import type { GuardName, LeaseConfig, SkipReason } from './lease-config.js';
import type { ClaimOutcomeName } from './observe.js';
import { withDeadline } from './with-deadline.js';

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
export async function claimLease(config: LeaseConfig, request: ClaimRequest, report = true): Promise<ClaimOutcome> {
  const { store, observer } = config;
  const owner = newOwnerToken();
  const storageKey = config.prefix + request.storageKey;
  const sentAt = performance.now();
  if (!store) {
    announceLocalMode(config);
    const fencingToken = request.fenced ? localFencingToken() : undefined;
    const lease: HeldLease = { guard: request.guard, key: request.key, storageKey, owner, store, config, sentAt, fencingToken };
    if (report) observer?.claim(request.guard, request.key, 'local', 0, fencingToken);
    return { claimed: true, lease };
  }
  let token: number | null | boolean;
  try {
    token = await withDeadline<number | null | boolean>(
      request.timeoutMs,
      () => `${store.kind} claim of "${storageKey}"`,
      request.fenced && store.acquireFenced
        ? (signal) => store.acquireFenced!(storageKey, owner, request.ttlMs, signal)
        : (signal) => store.acquire(storageKey, owner, request.ttlMs, signal),
      // The claim landed after we gave up and reported a skip: give the key back.
      (late) => {
        if (late !== false && late !== null) void store.release(storageKey, owner).catch(() => undefined);
      },
    );
  } catch (cause) {
    // A key the store can never hold is the caller's error, not an outage: no fail-closed skip.
    if (cause instanceof InvalidArgumentError) throw cause;
    const error =
      cause instanceof ReplicaGuardError
        ? cause
        : new BackendUnavailableError(`${store.kind} claim of "${storageKey}" failed: ${describeError(cause)}`, { cause });
    const outcome: ClaimOutcome = { claimed: false, reason: 'backend-unavailable', error };
    if (report) reportClaim(config, request, outcome, sentAt);
    return outcome;
  }
  if (token === false || token === null) {
    const outcome: ClaimOutcome = { claimed: false, reason: 'claimed-elsewhere' };
    if (report) reportClaim(config, request, outcome, sentAt);
    return outcome;
  }
  // A number > 0 is a fencing token; 0 is a fenced store that could not hand one out (an old table).
  const fencingToken = typeof token === 'number' && token > 0 ? token : undefined;
  if (token === 0) warnNoFencingColumn(config);
  const outcome: ClaimOutcome = {
    claimed: true,
    lease: { guard: request.guard, key: request.key, storageKey, owner, store, config, sentAt, fencingToken },
  };
  if (report && observer) reportClaim(config, request, outcome, sentAt);
  return outcome;
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
export async function releaseLease(lease: HeldLease): Promise<boolean | undefined> {
  const { store, config } = lease;
  if (!store) return true;
  try {
    return await withDeadline(
      config.timeoutMs,
      () => `${store.kind} release of "${lease.storageKey}"`,
      (signal) => store.release(lease.storageKey, lease.owner, signal),
    );
  } catch (error) {
    writeLog(
      config.logger,
      'warn',
      `${lease.guard}("${lease.key}"): could not release "${lease.storageKey}", it expires by itself: ${describeError(error)}`,
    );
    return undefined;
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
