// Guards bound to one lease store: a second Redis, a per-tenant prefix, a test's own client.
// The process-wide functions (claimPeriod, …, configured by setLeaseClient) are the default instance.
import type { CronSchedule } from '../cron-slot.js';
import { claimOnceWith } from './claim-once.js';
import { claimPeriodWith } from './claim-period.js';
import type { GuardOptions, RunExclusiveOptions, TimedGuardOptions } from './guard-options.js';
import { buildLeaseConfig, type LeaseClient, type LeaseClientOptions } from './lease-config.js';
import { runExclusiveWith } from './run-exclusive.js';
import { runOnceWith, type RunOnceOptions } from './run-once.js';
import type { LeaseContext, RunResult } from './run-result.js';
import { optionsObject } from './validate.js';

export interface CreateGuardsOptions extends LeaseClientOptions {
  /** The lease backend (as for setLeaseClient); null or omitted = local mode (every claim succeeds). */
  client?: LeaseClient | null;
}

/** The four guards bound to one store, prefix, timeout, logger and hooks. */
export interface Guards {
  claimPeriod(key: string, period: number | CronSchedule, options?: TimedGuardOptions): Promise<boolean>;
  claimOnce(key: string, ttlMs: number, options?: GuardOptions): Promise<boolean>;
  runExclusive<T>(
    key: string,
    ttlMs: number,
    fn: (signal: AbortSignal, lease: LeaseContext) => Promise<T> | T,
    options?: RunExclusiveOptions,
  ): Promise<RunResult<T>>;
  runOnce<T>(
    key: string,
    periodMs: number,
    fn: (signal: AbortSignal, lease: LeaseContext) => Promise<T> | T,
    options?: RunOnceOptions,
  ): Promise<RunResult<T>>;
}

/**
 * Guards bound to one store. Validates everything up front (an InvalidArgumentError or
 * UnknownClientError naming what was wrong); the client's lifecycle stays the caller's.
 *
 * @example const tenantGuards = createGuards({ client: redisB, prefix: 'tenant-b:' });
 */
export function createGuards(options: CreateGuardsOptions): Guards {
  const { client, ...rest } = optionsObject('createGuards', options);
  const config = buildLeaseConfig('createGuards', client, rest);
  return {
    claimPeriod: (key, period, callOptions) => claimPeriodWith(config, key, period, callOptions),
    claimOnce: (key, ttlMs, callOptions) => claimOnceWith(config, key, ttlMs, callOptions),
    runExclusive: (key, ttlMs, fn, callOptions) => runExclusiveWith(config, key, ttlMs, fn, callOptions),
    runOnce: (key, periodMs, fn, callOptions) => runOnceWith(config, key, periodMs, fn, callOptions),
  };
}
