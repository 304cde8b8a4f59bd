// no-unguarded-schedule across files for a job handler in another module that writes shared rows
// and also flushes a progress buffer (a call named for this instance): the flush is bookkeeping,
// the rows are written at every replica, and the job is reported. The same flush in a handler that
// only reads, or beside a write keyed by this machine's host name, keeps the job quiet.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('no-unguarded-schedule: bookkeeping in a handler of another module', () => {
  test('a handler updating rows is reported despite its flush; a reading handler and a host-keyed one are quiet', async () => {
    expect(await lintProjectFile('schedule-callee-bookkeeping', 'src/jobs/schedule.ts', ['no-unguarded-schedule'])).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/schedule.ts:5:28 unguardedSchedule',
    ]);
  });
});
