// no-unguarded-schedule's suggestion puts `claimPeriod(key, period)` first in the work function. When the
// period is a name the work function cannot see (a parameter of the function that arms the timer), the
// inserted guard would not compile: no suggestion, and the codemod leaves the schedule as a manual step.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };

/** Reminders armed by `arm` with the period `period`, sent by a function of the file. */
const reminders = (arm: string, period: string) =>
  lines(
    "import { db, mailer } from './services';",
    'const HOURLY = 3_600_000;',
    `export function ${arm} {`,
    `  setInterval(() => sendReminders(), ${period});`,
    '}',
    'async function sendReminders() {',
    "  const due = await db.query('SELECT id, email FROM invoices WHERE due_at < now() AND reminded_at IS NULL');",
    "  for (const row of due.rows) await mailer.send(row.email, 'Your invoice is due');",
    '}',
  );

ruleTester.run('no-unguarded-schedule: a period the work function cannot see', noUnguardedSchedule, {
  valid: [],
  invalid: [
    // the period is the arming function's parameter: `ms` is not declared in sendReminders
    {
      settings,
      code: reminders('startReminders(ms)', 'ms'),
      errors: [{ messageId: 'unguardedSchedule', line: 4, column: 15, suggestions: [] }],
    },
    // a property of the parameter: the same
    {
      settings,
      code: reminders('startReminders(options)', 'options.everyMs'),
      errors: [{ messageId: 'unguardedSchedule', line: 4, column: 15, suggestions: [] }],
    },
    // a module constant: the work function sees it, so the guard goes first in it
    guardedReport(settings, reminders('startReminders()', 'HOURLY'), {
      line: 4,
      column: 15,
      guard: "  if (!(await claimPeriod('billing:send-reminders', HOURLY))) return;",
      after: 6,
      importAfter: 1,
    }),
    // a parameter the work function sees, as the arrow is the work
    guardedReport(
      settings,
      lines(
        "import { db, mailer } from './services';",
        'export function startReminders(ms) {',
        '  setInterval(async () => {',
        "    const due = await db.query('SELECT id, email FROM invoices WHERE due_at < now() AND reminded_at IS NULL');",
        "    for (const row of due.rows) await mailer.send(row.email, 'Your invoice is due');",
        '  }, ms);',
        '}',
      ),
      { line: 3, column: 15, guard: "    if (!(await claimPeriod('billing:file-3', ms))) return;", after: 3, importAfter: 1 },
    ),
  ],
});
