// no-unguarded-schedule across files for a job whose first step row-locks its control row in a
// transaction: the cron file calls a module's `module.exports = fn` (`const settle = require(…)`),
// and that function locks the row (`SELECT … FOR UPDATE NOWAIT` after `BEGIN` on its client, a
// Sequelize `lock: t.LOCK.UPDATE` in its transaction) before it writes. Quiet; the twins — a job
// that writes with no lock, a lock taken on another client than the one that began — are reported.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('no-unguarded-schedule: a control-row lock in a required module', () => {
  test('a row lock in the transaction is a guard; no lock, or a lock outside the transaction, is reported', async () => {
    expect(await lintProjectFile('schedule-row-lock-module', 'src/cron.js', ['no-unguarded-schedule'])).toEqual([
      'replica-guard/no-unguarded-schedule src/cron.js:12:28 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/cron.js:15:28 unguardedSchedule',
    ]);
  });
});
