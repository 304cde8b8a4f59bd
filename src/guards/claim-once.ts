import { claimLease } from './claim-lease.js';
import type { GuardOptions } from './guard-options.js';
import { currentLeaseConfig, type LeaseConfig } from './lease-config.js';
import { assertDuration, assertKey, assertPositiveInteger, optionsObject } from './validate.js';

/**
 * One side effect per business event: true for the first caller of `key` within `ttlMs`, false
 * for everyone after (`SET key owner NX PX ttlMs`). Make `ttlMs` outlive every retry of the event.
 *
 * @example if (await claimOnce(`notify:sla:${task.id}:step-3`, 7 * DAY)) await notify(task);
 */
export function claimOnce(key: string, ttlMs: number, options?: GuardOptions): Promise<boolean> {
  return claimOnceWith(currentLeaseConfig(), key, ttlMs, options);
}

export async function claimOnceWith(config: LeaseConfig, key: string, ttlMs: number, options?: GuardOptions): Promise<boolean> {
  assertKey('claimOnce', 'key', key);
  assertDuration('claimOnce', 'ttlMs', ttlMs);
  const { timeoutMs = config.timeoutMs } = optionsObject('claimOnce', options);
  if (timeoutMs !== config.timeoutMs) assertPositiveInteger('claimOnce', 'options.timeoutMs', timeoutMs);
  const outcome = await claimLease(config, { guard: 'claimOnce', key, storageKey: key, ttlMs, timeoutMs });
  return outcome.claimed;
}
