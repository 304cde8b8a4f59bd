import { assertKey, assertOptionalNow, assertPositiveInteger } from './validate.js';

/**
 * The key for the fixed window of `periodMs` containing `now` (windows are aligned to the Unix
 * epoch, so every pod computes the same key): `periodKey('billing:close', 3_600_000)` →
 * `'billing:close:493827'`.
 */
export function periodKey(prefix: string, periodMs: number, now: number = Date.now()): string {
  assertKey('periodKey', 'prefix', prefix);
  assertPositiveInteger('periodKey', 'periodMs', periodMs);
  assertOptionalNow('periodKey', now);
  return `${prefix}:${Math.floor(now / periodMs)}`;
}
