// no-unguarded-schedule on a one-off timer armed for each row read at start-up from a model required out of
// the project's models folder, whatever its case (`const reminders = require('../store/models/reminder')`,
// then `await reminders.find({ sent: false })`): every replica reads the same rows and arms the same timers,
// so each reminder fires once per replica — reported when the timer's work reaches outside the process.
// Twins stay quiet: the rows read from a module outside a models folder (an in-process registry), and a
// timer whose work only drops the row from this process's memory, and timers armed in the tick of a cron job
// never started (the job decides; armed-per-row.ts).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { jsRuleTester } from './rule-tester.js';
import { lines } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'remind' } };

/** A ready handler reading open reminders from `from` and arming `work` for each. */
const ready = (from: string, work: string) =>
  lines(
    `const reminders = require('${from}');`,
    "const { deliverReminder } = require('../lib/deliver');",
    'const armed = new Map();',
    'module.exports = async (bot) => {',
    '  const open = await reminders.find({ sent: false });',
    '  open.forEach((reminder) => {',
    '    const wait = reminder.at - Date.now();',
    `    setTimeout(() => { ${work} }, Math.max(0, wait));`,
    '  });',
    '};',
  );

const DELIVER = 'if (!reminder.sent) deliverReminder(bot, reminder);';

jsRuleTester.run('no-unguarded-schedule: timers armed per row of a models-folder model', noUnguardedSchedule, {
  valid: [
    { settings, filename: '/srv/remind/src/events/ready.js', code: ready('../runtime/reminders', DELIVER) },
    { settings, filename: '/srv/remind/src/events/ready.js', code: ready('../store/models/reminder', 'armed.delete(reminder.id);') },
    // armed inside the tick of a cron job that is never started: that job decides, and it never runs
    {
      settings,
      filename: '/srv/remind/src/events/ready.js',
      code: lines(
        "const reminders = require('../store/models/reminder');",
        "const { deliverReminder } = require('../lib/deliver');",
        "const { CronJob } = require('cron');",
        'module.exports = async (bot) => {',
        "  const sweep = new CronJob('*/5 * * * *', async () => {",
        '    const open = await reminders.find({ sent: false });',
        '    open.forEach((reminder) => {',
        `      setTimeout(() => { ${DELIVER} }, 1_000);`,
        '    });',
        '  });',
        '  bot.sweep = sweep;',
        '};',
      ),
    },
  ],
  invalid: [
    {
      settings,
      filename: '/srv/remind/src/events/ready.js',
      code: ready('../store/models/reminder', DELIVER),
      errors: [{ messageId: 'unguardedSchedule', line: 8, column: 16 }],
    },
  ],
});
