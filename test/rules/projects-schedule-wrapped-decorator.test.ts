// no-unguarded-schedule on a decorator of the project that wraps a scheduler's: `@PrimaryCron(…)`
// whose definition returns `Cron.call(null, ...args)` of `@nestjs/schedule` in a cluster's primary
// (pm2's first instance) runs the job once per host — every host of the service still runs it. One
// that asks a leader election first is quiet; a project decorator that schedules nothing is no schedule.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule: decorators of the project wrapping a scheduler', () => {
  test('a method under a per-host wrapper of @Cron is reported at the decorator; under a leader-gated wrapper, or a decorator scheduling nothing, it is quiet', async () => {
    expect(await findings('schedule-wrapped-decorator', 'src/jobs/link-jobs.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/link-jobs.ts:9:3 unguardedSchedule',
    ]);
  });
});
