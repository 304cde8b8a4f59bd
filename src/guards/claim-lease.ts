// The one claim path every guard goes through: local mode, the deadline, fail-closed, logging and
// onSkip all live here so the four guards cannot drift apart.
import { BackendUnavailableError, ReplicaGuardError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import { newOwnerToken } from '../lease/owner-token.js';
import type { LeaseStore } from '../lease/store.js';
import { currentLeaseConfig, type GuardName, type LeaseConfig, type SkipReason } from './lease-config.js';
import { withDeadline } from './with-deadline.js';

/** A lease this process holds. `store` is null in local mode (nothing to renew or release). */
export interface HeldLease {
  readonly guard: GuardName;
  readonly key: string;
  readonly storageKey: string;
  readonly owner: string;
  readonly store: LeaseStore | null;
  readonly config: LeaseConfig;
}

export type ClaimOutcome = { claimed: true; lease: HeldLease } | { claimed: false; reason: SkipReason; error?: unknown };

export interface ClaimRequest {
  guard: GuardName;
  /** The caller's key, reported to onSkip. */
  key: string;
  /** The key in the backend, before the prefix (the caller's key plus a period or slot). */
  storageKey: string;
  ttlMs: number;
  timeoutMs?: number;
}

export async function claimLease(request: ClaimRequest): Promise<ClaimOutcome> {
  const config = currentLeaseConfig();
  const owner = newOwnerToken();
  const { store } = config;
  const lease: HeldLease = { guard: request.guard, key: request.key, storageKey: config.prefix + request.storageKey, owner, store, config };
  if (!store) {
    announceLocalMode(config);
    return { claimed: true, lease };
  }
  const timeoutMs = request.timeoutMs ?? config.timeoutMs;
  let acquired: boolean;
  try {
    acquired = await withDeadline(
      timeoutMs,
      `${store.kind} claim of "${lease.storageKey}"`,
      (signal) => store.acquire(lease.storageKey, owner, request.ttlMs, signal),
      // The claim landed after we gave up and reported a skip: give the key back.
      (late) => {
        if (late) void releaseLease(lease);
      },
    );
  } catch (cause) {
    const error =
      cause instanceof ReplicaGuardError
        ? cause
        : new BackendUnavailableError(`${store.kind} claim of "${lease.storageKey}" failed: ${describeError(cause)}`, { cause });
    reportSkip(config, request, 'backend-unavailable', error);
    return { claimed: false, reason: 'backend-unavailable', error };
  }
  if (!acquired) {
    reportSkip(config, request, 'claimed-elsewhere');
    return { claimed: false, reason: 'claimed-elsewhere' };
  }
  return { claimed: true, lease };
}

/** Compare-and-delete; never throws (a failed release just lets the lease expire). */
export async function releaseLease(lease: HeldLease): Promise<boolean> {
  const { store, config } = lease;
  if (!store) return true;
  try {
    return await withDeadline(config.timeoutMs, `${store.kind} release of "${lease.storageKey}"`, (signal) =>
      store.release(lease.storageKey, lease.owner, signal),
    );
  } catch (error) {
    writeLog(
      config.logger,
      'warn',
      `${lease.guard}("${lease.key}"): could not release "${lease.storageKey}", it expires by itself: ${describeError(error)}`,
    );
    return false;
  }
}

/** Compare-and-extend; rejects on backend errors and timeouts. */
export function extendLease(lease: HeldLease, ttlMs: number, timeoutMs = lease.config.timeoutMs): Promise<boolean> {
  const { store } = lease;
  if (!store) return Promise.resolve(true);
  return withDeadline(timeoutMs, `${store.kind} renewal of "${lease.storageKey}"`, (signal) =>
    store.extend(lease.storageKey, lease.owner, ttlMs, signal),
  );
}

function reportSkip(config: LeaseConfig, request: ClaimRequest, reason: SkipReason, error?: unknown): void {
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

function logHookError(config: LeaseConfig, error: unknown): void {
  writeLog(config.logger, 'error', `onSkip hook threw: ${describeError(error)}`);
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
