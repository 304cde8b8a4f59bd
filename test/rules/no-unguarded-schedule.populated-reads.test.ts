// no-unguarded-schedule on a declared job that only reads and logs: a Mongoose read whose query
// joins another collection in (`Model.find(…).populate('owner', 'name')`) is still a read, so a
// morning job listing due rentals to the log stays quiet, as it does without the `populate`. Its
// twins that write the rows they read, or send each reminder out, are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'rentals' } };

/** A daily job reading due rentals with `query`, then `each` per rental. */
const dueRentals = (query: string, each: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { Rental } from './models/rental';",
    "cron.schedule('30 7 * * *', async () => {",
    '  const cutoff = new Date();',
    '  cutoff.setHours(23, 59, 59, 999);',
    `  const rentals = await Rental.find({ returned: false, dueAt: { $lte: cutoff } })${query};`,
    '  for (const rental of rentals) {',
    "    const late = rental.items.find((item) => item.state !== 'back');",
    '    if (!late) continue;',
    `    ${each}`,
    '  }',
    '});',
  );
const logLine = 'console.log(`due: ${rental.renter.name} #${late.sku}`);';
const withRenter = ".populate('renter', 'name email')";
const reported = (code: string) =>
  guardedReport(settings, code, {
    line: 3,
    column: 29,
    guard: "  if (!(await claimPeriod('rentals:file-3', { cron: '30 7 * * *' }))) return;",
    after: 3,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule: a populated read is a read', noUnguardedSchedule, {
  valid: [
    { settings, code: dueRentals(withRenter, logLine) },
    { settings, code: dueRentals(".populate({ path: 'renter' }).lean()", logLine) },
    { settings, code: dueRentals('', logLine) },
  ],
  invalid: [
    reported(dueRentals(withRenter, 'await Rental.updateOne({ _id: rental._id }, { $set: { overdue: true } });')),
    reported(dueRentals(withRenter, 'await mailer.sendReminder(rental.renter.email, late.sku);')),
  ],
});
