// no-unguarded-schedule on a cron job built stopped in a local of a function's body (a boot or
// event handler): nothing outside the function reaches the local, so when its every use there is
// another method than a start (or it has none: the start left commented out) the job never runs
// and is quiet. Started in the function, started in a callback there, returned or handed on (kept
// in a list, stored on an object): reported, as a module-level job would be.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ledger' } };

/** A settlement job built stopped in a boot handler, then `after` (lines of the handler). */
const boot = (after: string[], keyword = 'const') =>
  lines(
    "import { CronJob } from 'cron';",
    "import { Ledger } from './ledger';",
    'export function onBoot(app) {',
    `  ${keyword} settle = new CronJob('15 * * * *', async () => {`,
    '    await Ledger.updateMany({ settled: false }, { $set: { settled: true } });',
    '  });',
    "  app.log('settlement job ready');",
    ...after,
    '}',
  );
/** The report at the job's work (its column moves with the declaration's keyword). */
const bootReport = (code: string, keyword = 'const') =>
  guardedReport(settings, code, {
    line: 4,
    column: 39 + keyword.length,
    guard: "    if (!(await claimPeriod('ledger:settle', { cron: '15 * * * *' }))) return;",
    after: 4,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule (a local job never started)', noUnguardedSchedule, {
  valid: [
    // the start left commented out: nothing else reaches the local
    { settings, code: boot(['  // settle.start();'], 'let') },
    // only stopped
    { settings, code: boot(['  app.onClose(() => settle.stop());']) },
    // a namespace import's constructor, no uses at all
    {
      settings,
      code: lines(
        "const cron = require('cron');",
        "const { Ledger } = require('./ledger');",
        'module.exports = async function whenReady(app) {',
        "  const settle = new cron.CronJob('15 * * * *', async () => {",
        '    await Ledger.updateMany({ settled: false }, { $set: { settled: true } });',
        '  });',
        '};',
      ),
    },
  ],
  invalid: [
    // started in the function
    bootReport(boot(['  settle.start();'], 'let'), 'let'),
    // started by a callback of the function
    bootReport(boot(['  app.onListen(() => settle.start());'])),
    // returned: the caller may start it
    bootReport(boot(['  return settle;'])),
    // handed on: kept in a list
    bootReport(boot(['  app.jobs.push(settle);'])),
    // stored on an object
    bootReport(boot(['  app.settleJob = settle;'])),
  ],
});
