// no-unguarded-schedule on a cron job whose work asks an object for something by a lock verb
// (`get…`, `run…`, `take…`). A receiver named for a lock (`leases`, `locker`, `locking`) is asked for
// the lock: quiet. A receiver whose name only begins with a lock word (`lockdownNotices`,
// `leasehold`) is no lock: the job's shared update is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'harbor' } };

/** A ten-minute job that asks `receiver.method(…)` first, then updates a shared table. */
const digest = (receiver: string, method: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { pool } from './db';",
    `import { ${receiver} } from './notices';`,
    "cron.schedule('*/10 * * * *', async () => {",
    `  const latest = await ${receiver}.${method}('digest');`,
    "  await pool.query('UPDATE notice_digest SET body = $1', [latest]);",
    '});',
  );

const reported = (receiver: string, method: string) =>
  guardedReport(settings, digest(receiver, method), {
    line: 4,
    column: 31,
    guard: "  if (!(await claimPeriod('harbor:file-4', { cron: '*/10 * * * *' }))) return;",
    after: 4,
    importAfter: 3,
  });

ruleTester.run('no-unguarded-schedule: receivers named for a lock', noUnguardedSchedule, {
  valid: [
    { settings, code: digest('leases', 'getHeld') },
    { settings, code: digest('locker', 'acquire') },
    { settings, code: digest('locking', 'take') },
    { settings, code: digest('digestLock', 'get') },
  ],
  invalid: [
    // Only the start of the name is a lock word: a notice board, a property register.
    reported('lockdownNotices', 'getLatest'),
    reported('leaseholdRegister', 'getCurrent'),
  ],
});
