// Every transform, in the order they run. The CLI (`--transform`, `--help`), the programmatic API
// and the docs test read this one list; adding a transform is adding it here.
import { guardSchedules } from './guard-schedules.js';
import { advisoryLockToLease } from './advisory-lock-to-lease.js';
import { extractMigrations } from './extract-migrations.js';
import { atomicCounters } from './atomic-counters.js';
import { jetstreamMsgId } from './jetstream-msg-id.js';
import type { AnyTransform } from './transform.js';

export const transforms: readonly AnyTransform[] = [guardSchedules, atomicCounters, jetstreamMsgId, advisoryLockToLease, extractMigrations];

export class UnknownTransformError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `unknown transform${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')} (known: ${transforms.map((t) => t.name).join(', ')})`,
    );
    this.name = 'UnknownTransformError';
  }
}

/** The transforms named (all of them when `names` is undefined or empty), in registry order. */
export function findTransforms(names?: readonly string[]): AnyTransform[] {
  if (!names || names.length === 0) return [...transforms];
  const unknown = names.filter((name) => !transforms.some((t) => t.name === name));
  if (unknown.length > 0) throw new UnknownTransformError(unknown);
  return transforms.filter((t) => names.includes(t.name));
}
