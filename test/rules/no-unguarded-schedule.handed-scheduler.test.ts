// no-unguarded-schedule on a scheduler module handed in as a parameter: `function startDigests(cron)
// { cron.schedule('30 6 * * *', async () => { … }) }`, which the server calls with the node-cron it
// imported. The file imports no scheduler; the call is node-cron's only when the parameter's name says
// `cron` and the schedule is a cron expression written out. Another API's `.schedule` (agenda's
// `'in 5 minutes'`, a date), a receiver that is no parameter, a parameter named otherwise stay quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import type { GuardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

/** A module handing its receiver `receiver` (as `parameter`) a schedule of `expression`. */
const digests = (parameter: string, receiver: string, expression: string) =>
  lines(
    "const Digest = require('../models/Digest');",
    `function startDigests(${parameter}) {`,
    `  ${receiver}.schedule(${expression}, async () => {`,
    "    await Digest.updateMany({ state: 'queued' }, { state: 'sent' });",
    '  });',
    '}',
    'module.exports = startDigests;',
  );

/** The report with its suggestion: the guard as a line of the work, the module's `require` of replica-guard after line 1. */
const reported = (code: string, report: Omit<GuardedReport, 'importAfter'>) => {
  const out = code.split('\n');
  out.splice(report.after, 0, report.guard);
  out.splice(1, 0, "const { claimPeriod } = require('replica-guard');");
  const suggestions = [{ messageId: 'addClaimPeriod' as const, output: out.join('\n') }];
  return { settings, code, errors: [{ messageId: 'unguardedSchedule' as const, line: report.line, column: report.column, suggestions }] };
};

ruleTester.run('no-unguarded-schedule (scheduler module handed in)', noUnguardedSchedule, {
  valid: [
    // agenda's `schedule(when, name)`: a time in words, not a cron expression.
    { settings, code: digests('agenda', 'agenda', "'in 5 minutes'") },
    { settings, code: digests('cron', 'cron', "'in 5 minutes'") },
    // A date or a computed rule: another API's schedule.
    { settings, code: digests('cron', 'cron', 'nextRunAt') },
    // A parameter not named for the scheduler.
    { settings, code: digests('scheduler', 'scheduler', "'30 6 * * *'") },
    // Not a parameter: a value of the file whose origin is not node-cron.
    {
      settings,
      code: digests('', 'cron', "'30 6 * * *'").replace('function startDigests() {', 'const cron = makeCron();\nfunction startDigests() {'),
    },
    // Guarded: the work claims the period first.
    {
      settings,
      code: digests('cron', 'cron', "'30 6 * * *'")
        .replace(
          "  cron.schedule('30 6 * * *', async () => {",
          "  cron.schedule('30 6 * * *', async () => {\n    if (!(await claimPeriod('index:digests', { cron: '30 6 * * *' }))) return;",
        )
        .replace(
          "const Digest = require('../models/Digest');",
          "const Digest = require('../models/Digest');\nimport { claimPeriod } from 'replica-guard';",
        ),
    },
  ],
  invalid: [
    reported(digests('cron', 'cron', "'30 6 * * *'"), {
      line: 3,
      column: 31,
      guard: "    if (!(await claimPeriod('index:file-3', { cron: '30 6 * * *' }))) return;",
      after: 3,
    }),
    // Six fields (with seconds), a parameter named `cronModule`, an arrow exported as the module.
    reported(
      lines(
        "const Coupon = require('../models/Coupon');",
        'module.exports = (cronModule) => {',
        "  cronModule.schedule('0 */10 * * * *', async () => {",
        '    await Coupon.deleteMany({ expiresAt: { $lt: new Date() } });',
        '  });',
        '};',
      ),
      {
        line: 3,
        column: 41,
        guard: "    if (!(await claimPeriod('index:file-3', { cron: '0 */10 * * * *' }))) return;",
        after: 3,
      },
    ),
  ],
});
