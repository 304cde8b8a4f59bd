// no-unguarded-schedule across files for work that stays on this host: a cron job calling a method
// of a singleton another module exports (`export default new Tracker()`), followed into that
// class and the modules it imports, is quiet when all it does is read and keep the answer in its
// own fields, or delete files under the app's cache directory; the same job is reported when the
// method writes on the other side (a POST), hands its data to a package, or deletes files on a
// shared mount.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('no-unguarded-schedule: host-local work across files', () => {
  test('reads into a singleton and a cache-directory cleanup are quiet; a POST, an unknown package call and a shared-mount cleanup are reported', async () => {
    expect(await lintProjectFile('schedule-host-local-singleton', 'src/jobs/schedule.ts', ['no-unguarded-schedule'])).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/schedule.ts:13:40 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/jobs/schedule.ts:15:40 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/jobs/schedule.ts:23:37 unguardedSchedule',
    ]);
  });
});

describe('no-unguarded-schedule: a cleanup of this process own pool, in another module', () => {
  test("a cleanup named for a delete that drops the pool's entries and closes its pages is quiet; saving pooled entities or deleting shared rows is reported", async () => {
    expect(await lintProjectFile('schedule-own-pool', 'src/server.ts', ['no-unguarded-schedule'])).toEqual([
      'replica-guard/no-unguarded-schedule src/server.ts:11:13 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/server.ts:12:13 unguardedSchedule',
    ]);
  });
});
