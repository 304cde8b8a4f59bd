// no-unguarded-schedule on a timer whose work only handles the rows an imported store's method
// answers it won: the method reads candidates, updates each with a filter that re-checks more than
// the id (`where: { id, takenAt: null }`) and keeps the row when the update's count says it won
// (a batch claim); the work leaves when the batch is empty. A store method whose update re-checks
// only the id wins every row at every replica: that timer is reported.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule: rows won by an imported store’s batch claim', () => {
  test('the timer handling a batch its store claimed is quiet; the one whose store updates by id alone is reported', async () => {
    expect(await findings('schedule-batch-claim-store', 'src/payout-worker.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/payout-worker.ts:28:15 unguardedSchedule',
    ]);
  });
});
