// Runs a job while holding a lease: renew, then either release (runExclusive, or any failure) or
// keep the key for a while (runOnce after success). fn's errors propagate after cleanup.
//
// A lease is reported kept only when this holder can show it held it for the whole run: no
// renewal failed, the run ended within the lease's confirmed time (a CPU-bound fn that blocked the
// event loop past it is caught here even though no renewal timer could fire), and the release
// (or the keep) found the key still ours.
import { LeaseLostError } from '../errors.js';
import { describeError, writeLog } from '../logger.js';
import type { KeepOutcome } from '../lease/store.js';
import { extendLease, releaseLease, type HeldLease } from './claim-lease.js';
import { keepLease } from './lease-keeper.js';
import type { LeaseLossReason } from './observe.js';
import type { LeaseContext, RanResult } from './run-result.js';
import { withDeadline } from './with-deadline.js';

export interface AfterSuccess {
  /** When set, keep the key this long after success instead of releasing it. */
  keepForMs?: () => number;
}

export async function runHeld<T>(
  lease: HeldLease,
  ttlMs: number,
  fn: (signal: AbortSignal, context: LeaseContext) => Promise<T> | T,
  after: AfterSuccess = {},
): Promise<RanResult<T>> {
  const keeper = keepLease(lease, ttlMs);
  const { fencingToken } = lease;
  let value: T;
  try {
    value = await fn(keeper.signal, { fencingToken });
  } catch (error) {
    await keeper.stop();
    await releaseLease(lease);
    throw error;
  }
  const settledAt = performance.now();
  await keeper.stop();
  let lossReason: LeaseLossReason | undefined = keeper.lapsed(settledAt) ? 'expired' : undefined;
  if (after.keepForMs) {
    const kept = await keepKey(lease, Math.max(1, Math.ceil(after.keepForMs())));
    if (kept === 'lost') lossReason = 'taken-over';
    else if (kept === 'restored') lossReason ??= 'expired';
  } else {
    const released = await releaseLease(lease);
    // false: the key was gone or another owner's. undefined (no answer): the lapse check decides.
    if (released === false) lossReason ??= 'taken-over';
  }
  if (lossReason && !keeper.lost()) {
    const overrun = Math.round(settledAt - lease.sentAt);
    const message =
      lossReason === 'expired'
        ? `lease "${lease.storageKey}" (ttl ${ttlMs} ms) ran out while fn ran for ${overrun} ms without a renewal (a blocked event loop?); another replica may have run meanwhile`
        : `lease "${lease.storageKey}" was taken over by another owner while fn ran`;
    keeper.lose(lossReason, new LeaseLostError(message));
  }
  const result: RanResult<T> = { ran: true, value, leaseLost: keeper.lost() };
  if (fencingToken !== undefined) result.fencingToken = fencingToken;
  return result;
}

/** The keep's outcome; undefined when the backend did not answer (logged). */
async function keepKey(lease: HeldLease, keepForMs: number): Promise<KeepOutcome | undefined> {
  const { store } = lease;
  if (!store) return 'held';
  try {
    const outcome: KeepOutcome = store.keep
      ? await keepWithDeadline(lease, keepForMs)
      : (await extendLease(lease, keepForMs))
        ? 'held'
        : 'lost';
    if (outcome === 'lost') {
      writeLog(
        lease.config.logger,
        'warn',
        `${lease.guard}("${lease.key}"): another replica took "${lease.storageKey}" while fn ran; it may repeat this period`,
      );
    } else if (outcome === 'restored') {
      writeLog(
        lease.config.logger,
        'warn',
        `${lease.guard}("${lease.key}"): the lease on "${lease.storageKey}" expired while fn ran and nobody took it; the period is kept`,
      );
    }
    return outcome;
  } catch (error) {
    writeLog(
      lease.config.logger,
      'warn',
      `${lease.guard}("${lease.key}"): could not keep "${lease.storageKey}" after success (${describeError(error)}); another replica may repeat this period`,
    );
    return undefined;
  }
}

async function keepWithDeadline(lease: HeldLease, keepForMs: number): Promise<KeepOutcome> {
  const store = lease.store!;
  return withDeadline(
    lease.config.timeoutMs,
    () => `${store.kind} keep of "${lease.storageKey}"`,
    (signal) => store.keep!(lease.storageKey, lease.owner, keepForMs, signal),
  );
}
