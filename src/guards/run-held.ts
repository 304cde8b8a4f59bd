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
import { LeaseKeeper } from './lease-keeper.js';
import type { LeaseLossReason } from './observe.js';
import type { LeaseContext, RanResult } from './run-result.js';
import { withDeadline } from './with-deadline.js';

export interface AfterSuccess {
  /** When set, keep the key this long after success instead of releasing it. */
  keepForMs?: () => number;
}

export function runHeld<T>(
  lease: HeldLease,
  ttlMs: number,
  fn: (signal: AbortSignal, context: LeaseContext) => Promise<T> | T,
  after?: AfterSuccess,
): Promise<RanResult<T>> {
  const keeper = new LeaseKeeper(lease, ttlMs);
  let returned: Promise<T> | T;
  try {
    returned = fn(keeper.signal, { fencingToken: lease.fencingToken });
  } catch (error) {
    return failed(keeper, lease, error);
  }
  if (returned !== null && typeof returned === 'object' && typeof (returned as { then?: unknown }).then === 'function') {
    return Promise.resolve(returned).then(
      (value) => succeeded(keeper, lease, ttlMs, value, after),
      (error: unknown) => failed(keeper, lease, error),
    );
  }
  return succeeded(keeper, lease, ttlMs, returned as T, after);
}

async function failed(keeper: LeaseKeeper, lease: HeldLease, error: unknown): Promise<never> {
  await keeper.stop();
  await releaseLease(lease);
  keeper.recycle();
  throw error;
}

function succeeded<T>(
  keeper: LeaseKeeper,
  lease: HeldLease,
  ttlMs: number,
  value: T,
  after: AfterSuccess | undefined,
): Promise<RanResult<T>> {
  const settledAt = performance.now();
  const renewing = keeper.stop();
  if (renewing) return renewing.then(() => finish(keeper, lease, ttlMs, value, after, settledAt));
  return finish(keeper, lease, ttlMs, value, after, settledAt);
}

function finish<T>(
  keeper: LeaseKeeper,
  lease: HeldLease,
  ttlMs: number,
  value: T,
  after: AfterSuccess | undefined,
  settledAt: number,
): Promise<RanResult<T>> {
  const lapsed: LeaseLossReason | undefined = keeper.lapsed(settledAt) ? 'expired' : undefined;
  if (after?.keepForMs) {
    return keepKey(lease, Math.max(1, Math.ceil(after.keepForMs()))).then((kept) =>
      result(keeper, lease, ttlMs, value, settledAt, kept === 'lost' ? 'taken-over' : kept === 'restored' ? (lapsed ?? 'expired') : lapsed),
    );
  }
  // false: the key was gone or another owner's. undefined (no answer): the lapse check decides.
  return releaseLease(lease).then((released) =>
    result(keeper, lease, ttlMs, value, settledAt, released === false ? (lapsed ?? 'taken-over') : lapsed),
  );
}

function result<T>(
  keeper: LeaseKeeper,
  lease: HeldLease,
  ttlMs: number,
  value: T,
  settledAt: number,
  lossReason: LeaseLossReason | undefined,
): RanResult<T> {
  if (lossReason && !keeper.lost()) {
    const ranMs = Math.round(settledAt - lease.sentAt);
    const message =
      lossReason === 'expired'
        ? `lease "${lease.storageKey}" (ttl ${ttlMs} ms) ran out while fn ran for ${ranMs} ms without a renewal (a blocked event loop?); another replica may have run meanwhile`
        : `lease "${lease.storageKey}" was taken over by another owner while fn ran`;
    keeper.lose(lossReason, new LeaseLostError(message));
  }
  const ran: RanResult<T> = { ran: true, value, leaseLost: keeper.lost() };
  keeper.recycle();
  if (lease.fencingToken !== undefined) ran.fencingToken = lease.fencingToken;
  return ran;
}

/** The keep's outcome; undefined when the backend did not answer (logged). */
async function keepKey(lease: HeldLease, keepForMs: number): Promise<KeepOutcome | undefined> {
  const { store } = lease;
  if (!store) return 'held';
  try {
    const outcome: KeepOutcome = store.keep
      ? await withDeadline(
          lease.config.timeoutMs,
          () => `${store.kind} keep of "${lease.storageKey}"`,
          (signal) => store.keep!(lease.storageKey, lease.owner, keepForMs, signal),
        )
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
