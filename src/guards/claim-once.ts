import { claimKey } from './key-claim.js';
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

export function claimOnceWith(config: LeaseConfig, key: string, ttlMs: number, options?: GuardOptions): Promise<boolean> {
  let timeoutMs: number;
  try {
    assertKey('claimOnce', 'key', key);
    assertDuration('claimOnce', 'ttlMs', ttlMs);
    timeoutMs = optionsObject('claimOnce', options).timeoutMs ?? config.timeoutMs;
    if (timeoutMs !== config.timeoutMs) assertPositiveInteger('claimOnce', 'options.timeoutMs', timeoutMs);
  } catch (error) {
    return Promise.reject(error);
  }
  return claimKey(config, 'claimOnce', key, config.prefix + key, ttlMs, timeoutMs);
}
