// The functions that make scheduled work safe across replicas, and how each one guards.
// Plain data read by `no-unguarded-schedule` (is this work guarded?) and by `guard-schedules`.

/**
 * - `check`: returns whether this replica may act (`if (!(await claimPeriod(…))) return;`).
 * - `wrapper`: runs a function under a lease (`runExclusive(key, ttl, fn)`).
 * - `per-replica`: marks work that runs on every replica by design (`perReplica(fn)`).
 */
export type GuardKind = 'check' | 'wrapper' | 'per-replica';

export interface GuardEntry {
  /** Module the guard is imported from; `undefined` matches a same-file or global function by name. */
  module: string | undefined;
  /** Export path inside the module (`['claimPeriod']`, or `['jobs', 'guard']` for a member). */
  path: readonly string[];
  kind: GuardKind;
}

export const RUNTIME_MODULE = 'replica-guard';

/** The runtime's no-op method decorator that marks a scheduled method as per-replica by design. */
export const PER_REPLICA_DECORATOR = 'PerReplica';

/** The guard a suggestion inserts as the first statement of a scheduled work function. */
export const PERIOD_GUARD = 'claimPeriod';

export const GUARDS: readonly GuardEntry[] = [
  { module: RUNTIME_MODULE, path: ['claimPeriod'], kind: 'check' },
  { module: RUNTIME_MODULE, path: ['claimOnce'], kind: 'check' },
  { module: RUNTIME_MODULE, path: ['runExclusive'], kind: 'wrapper' },
  { module: RUNTIME_MODULE, path: ['runOnce'], kind: 'wrapper' },
  { module: RUNTIME_MODULE, path: ['perReplica'], kind: 'per-replica' },
];

/** A guard named in `settings['replica-guard'].guards`: `name` may be a dotted member path. */
export function guardFromSetting(setting: { module?: string; name: string }): GuardEntry {
  return { module: setting.module, path: setting.name.split('.'), kind: 'check' };
}
