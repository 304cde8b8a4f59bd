// Schedules a project registers through its own code, beside those of the scheduler catalogue: a job added to a
// job manager of its own with a cron schedule and a work function (own-cron-registrations.ts), and a timer armed
// through an injected timer provider (injected-timers.ts). A call the catalogue already judges is not judged twice.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { injectedTimerWorks } from '../../analysis/scheduled-work/injected-timers.js';
import { ownCronRegistrationWorks } from '../../analysis/scheduled-work/own-cron-registrations.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';

/** `works` (the catalogue's and the other finders') with the file's own schedules after them. */
export function withOwnSchedules(sourceCode: SourceCode, works: ScheduledWork[]): ScheduledWork[] {
  const known = new Set<TSESTree.Node>(works.map((work) => work.schedulerNode));
  works.push(...ownCronRegistrationWorks(sourceCode, known), ...injectedTimerWorks(sourceCode, known));
  return works;
}
