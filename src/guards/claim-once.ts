import { claimLease } from './claim-lease.js';
import type { GuardOptions } from './guard-options.js';
import { assertKey, assertPositiveInteger } from './validate.js';

/**
 * One side effect per business event: true for the first caller of `key` within `ttlMs`, false
 * for everyone after (`SET key owner NX PX ttlMs`). Make `ttlMs` outlive every retry of the event.
 *
 * @example if (await claimOnce(`notify:sla:${task.id}:step-3`, 7 * DAY)) await notify(task);
 */
export async function claimOnce(key: string, ttlMs: number, options: GuardOptions = {}): Promise<boolean> {
  assertKey('claimOnce', 'key', key);
  assertPositiveInteger('claimOnce', 'ttlMs', ttlMs);
  if (options.timeoutMs !== undefined) assertPositiveInteger('claimOnce', 'options.timeoutMs', options.timeoutMs);
  const outcome = await claimLease({
    guard: 'claimOnce',
    key,
    storageKey: key,
    ttlMs,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return outcome.claimed;
}
