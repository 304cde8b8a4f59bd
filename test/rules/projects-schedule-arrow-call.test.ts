// no-unguarded-schedule on a bare timer whose arrow only calls one function of another project module:
// with that module in reach, the cross-file summary says what the function does (a shared write: reported;
// this process's own memory: quiet, whatever its name); out of reach (a missing file), its name decides.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule: an arrow calling one imported function', () => {
  test('judged by the function when its module is in reach, by its name when not', async () => {
    // outbox/drain.ts updates rows: reported; gauges/poll.ts fills a Map of this process, though named for a
    // job: quiet; refunds/pending.ts is missing and `handlePendingRefunds` names a job over due items: reported.
    expect(await findings('schedule-arrow-call-summary', 'src/main.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/main.ts:5:13 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/main.ts:7:13 unguardedSchedule',
    ]);
  });
});
