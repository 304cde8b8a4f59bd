// Every transform, in the order they run. The CLI (`--transform`, `--help`), the programmatic API
// and the docs test read this one list; adding a transform is adding it here.
import { guardSchedules } from './transforms/guard-schedules/index.js';
import { advisoryLockToLease } from './transforms/advisory-lock-to-lease/index.js';
import { extractMigrations } from './transforms/extract-migrations/index.js';
import { atomicCounters } from './transforms/atomic-counters/index.js';
import { jetstreamMsgId } from './transforms/jetstream-msg-id/index.js';
import type { AnyTransform } from './engine/transform.js';

// The transforms whose rewrites change SQL text inside strings and templates on purpose (a bound
// in an UPDATE, pg_advisory_xact_lock); the engine refuses any other edit inside a literal.
const rewritingSql = (transform: AnyTransform): AnyTransform => ({ ...transform, rewritesLiterals: true });

export const transforms: readonly AnyTransform[] = [
  guardSchedules,
  rewritingSql(atomicCounters),
  jetstreamMsgId,
  rewritingSql(advisoryLockToLease),
  extractMigrations,
];

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
