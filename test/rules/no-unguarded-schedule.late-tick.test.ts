// no-unguarded-schedule on a cron job built without its work and handed it afterwards:
// `const job = new CronJob({ cronTime })`, then `job.addCallback(fn)` or `job.fireOnTick = fn` (the
// method every tick runs, replaced), then `job.start()`. The function handed over is the work of a
// declared job. A handler given to another variable, or a guarded one, is not reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'club' } };

const renewals = (handOver: string, ...body: string[]) =>
  lines(
    "import { CronJob } from 'cron';",
    '',
    'export function startRenewals(db: Db, other: CronJob) {',
    "  const renewals = new CronJob({ cronTime: '0 */6 * * *' });",
    `  ${handOver} async () => {`,
    ...body,
    "    await db.query('UPDATE memberships SET renewed_at = now() WHERE renews_at < now()');",
    `  }${handOver.endsWith('(') ? ')' : ''};`,
    '  renewals.start();',
    '}',
  );

ruleTester.run('no-unguarded-schedule (work handed to a built job)', noUnguardedSchedule, {
  valid: [
    // Handed to another job: this one runs nothing.
    { settings, code: renewals('other.addCallback(') },
    { settings, code: renewals('other.fireOnTick =') },
    // Guarded at its start.
    {
      settings,
      code: lines(
        "import { claimPeriod } from 'replica-guard';",
        renewals('renewals.addCallback(', "    if (!(await claimPeriod('club:renewals', { cron: '0 */6 * * *' }))) return;"),
      ),
    },
  ],
  invalid: [
    guardedReport(settings, renewals('renewals.addCallback('), {
      line: 4,
      column: 20,
      guard: "    if (!(await claimPeriod('club:renewals', { cron: '0 */6 * * *' }))) return;",
      after: 5,
      importAfter: 1,
    }),
    guardedReport(settings, renewals('renewals.fireOnTick ='), {
      line: 4,
      column: 20,
      guard: "    if (!(await claimPeriod('club:renewals', { cron: '0 */6 * * *' }))) return;",
      after: 5,
      importAfter: 1,
    }),
  ],
});
