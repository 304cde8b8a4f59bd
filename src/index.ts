// The runtime entry: `import { claimPeriod } from 'replica-guard'`. Imports no tooling.
export * from './errors.js';
export type { LeaseStore, KeepOutcome } from './lease/store.js';
export {
  setLeaseClient,
  type LeaseClient,
  type LeaseClientOptions,
  type SkipEvent,
  type SkipReason,
  type GuardName,
} from './guards/lease-config.js';
export { claimPeriod } from './guards/claim-period.js';
export { claimOnce } from './guards/claim-once.js';
export { runExclusive } from './guards/run-exclusive.js';
export { runOnce, type RunOnceOptions } from './guards/run-once.js';
export { createGuards, type CreateGuardsOptions, type Guards } from './guards/create-guards.js';
export type { GuardEvent, ClaimOutcomeName, LeaseLossReason, MetricsOption, MeterProviderLike } from './guards/observe.js';
export { withFence, fenceTableStatements, type FenceOptions, type FencedClientLike } from './fencing.js';
export { periodKey } from './guards/period-key.js';
export type { RunResult, RanResult, SkippedResult, LeaseContext } from './guards/run-result.js';
export type { GuardOptions, TimedGuardOptions, RunExclusiveOptions } from './guards/guard-options.js';
export { cronSlot, type CronSchedule, type CronSlot } from './cron-slot.js';
export { perReplica, PerReplica } from './per-replica.js';
export type { Logger } from './logger.js';
export * from './migrations/index.js';
export * from './rows.js';
export * from './outbox.js';
export * from './lease/postgres-store.js';
