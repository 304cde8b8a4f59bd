// Decorator schedulers of NestJS before `@nestjs/schedule`: `nest-schedule` (and its fork
// `@nestcloud/schedule`, whose decorators take `@nestjs/schedule`'s arguments). A class extending
// `NestSchedule` runs its `@Cron`, `@Interval` and `@Timeout` methods in every process that builds the
// module — every replica — unless the job is handed to a locker the replicas share: the class extends
// `NestDistributedSchedule` (its `tryLock(method)` decides each run) or the method carries
// `@UseLocker(Locker)`. Plain data, part of the scheduler catalogue (schedulers.ts).
import type { SchedulerEntry } from './schedulers.js';

const NEST_SCHEDULE = ['nest-schedule'] as const;

/** nest-schedule: `@Cron(expr, { key, startTime, … })`, `@Interval(ms, config)`, `@Timeout(ms, config)`. */
function legacyNestEntry(decorator: 'Cron' | 'Interval' | 'Timeout'): SchedulerEntry {
  return {
    id: `nest-schedule.${decorator}`,
    modules: NEST_SCHEDULE,
    path: [decorator],
    kind: 'decorator',
    work: [{ kind: 'decorated-method' }],
    schedule: [{ kind: decorator === 'Cron' ? 'cron' : 'interval', argument: 0 }],
    nameArgument: { argument: 1, option: 'key' },
    // A one-off after each start, as `@nestjs/schedule`'s `@Timeout`.
    ...(decorator === 'Timeout' ? { oneShot: true } : {}),
  };
}

export const DECORATOR_SCHEDULERS: readonly SchedulerEntry[] = [
  legacyNestEntry('Cron'),
  legacyNestEntry('Interval'),
  legacyNestEntry('Timeout'),
];

/**
 * What hands a decorated job to a lock every replica sees: a base class of the job's class, or a
 * decorator on its method, imported from one of `modules`.
 */
export const DECORATOR_SCHEDULE_LOCKERS = {
  modules: ['nest-schedule', '@nestcloud/schedule'],
  baseClasses: ['NestDistributedSchedule'],
  decorators: ['UseLocker'],
} as const;
