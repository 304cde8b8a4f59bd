// Runs a job while holding a lease: renew, then either release (runExclusive, or any failure) or
// keep the key for a while (runOnce after success). fn's errors propagate after cleanup.
import { describeError, writeLog } from '../logger.js';
import { extendLease, releaseLease, type HeldLease } from './claim-lease.js';
import { keepLease } from './lease-keeper.js';
import type { RanResult } from './run-result.js';

export interface AfterSuccess {
  /** When set, keep the key this long after success instead of releasing it. */
  keepForMs?: () => number;
}

export async function runHeld<T>(
  lease: HeldLease,
  ttlMs: number,
  fn: (signal: AbortSignal) => Promise<T> | T,
  after: AfterSuccess = {},
): Promise<RanResult<T>> {
  const keeper = keepLease(lease, ttlMs);
  let value: T;
  try {
    value = await fn(keeper.signal);
  } catch (error) {
    await keeper.stop();
    await releaseLease(lease);
    throw error;
  }
  await keeper.stop();
  const leaseLost = keeper.lost();
  if (after.keepForMs && !leaseLost) await keepKey(lease, Math.max(1, Math.ceil(after.keepForMs())));
  else await releaseLease(lease);
  return { ran: true, value, leaseLost };
}

async function keepKey(lease: HeldLease, keepForMs: number): Promise<void> {
  try {
    if (await extendLease(lease, keepForMs)) return;
    writeLog(
      lease.config.logger,
      'warn',
      `${lease.guard}("${lease.key}"): the lease expired before it could be kept; another replica may repeat this period`,
    );
  } catch (error) {
    writeLog(
      lease.config.logger,
      'warn',
      `${lease.guard}("${lease.key}"): could not keep "${lease.storageKey}" after success (${describeError(error)}); another replica may repeat this period`,
    );
  }
}
