// no-unguarded-schedule on a project class whose constructor schedules the callback it is handed
// (`new NightlyCronJob(expr, label, async () => { … })`, the class arming a cron job in a method its
// constructor calls and running the callback amid its own bookkeeping): each `new` handing it work
// is a schedule, judged by that work at the `new`. Work touching only this process's memory, work
// beginning with a guard, and a class that schedules only when a later method is called are quiet.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule: jobs built from a project class that schedules its callback', () => {
  test('a job whose handed work deletes rows is reported at the `new`; in-memory, guarded and not-yet-started jobs are quiet', async () => {
    expect(await findings('schedule-constructed-job', 'src/jobs/editorial-jobs.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/editorial-jobs.ts:8:77 unguardedSchedule',
    ]);
  });
});
