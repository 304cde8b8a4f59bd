// no-unguarded-schedule for a timer whose arrow only calls a function of the file that reads rows
// through a model class (`await User.find()`) and hands each row to a service of another module,
// inside a `try` and an `if`: business work on shared rows, reported as a declared job is. Rows
// only kept in this process's own map are not handed on.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'api' } };

/** An hourly timer running `refreshTiers`, which reads every user and does `each` with each one. */
const task = (each: string) =>
  lines(
    "import memberService from '../services/member';",
    'const seen = new Map();',
    'export default function initTask() {',
    '  setInterval(async () => {',
    '    await refreshTiers();',
    '  }, 3_600_000);',
    '}',
    'async function refreshTiers() {',
    '  try {',
    '    const tiers = await memberService.tiers();',
    '    if (tiers.length) {',
    '      const users = await User.find();',
    `      for (const user of users) ${each};`,
    '    }',
    '  } catch (err) {',
    '    console.error(err);',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule: rows read in a function of the file and handed on', noUnguardedSchedule, {
  valid: [{ settings, code: task('seen.set(user.id, user)') }],
  invalid: [
    guardedReport(settings, task('await memberService.expireTier(user, tiers)'), {
      line: 4,
      column: 15,
      guard: "  if (!(await claimPeriod('api:refresh-tiers', 3_600_000))) return;",
      after: 8,
      importAfter: 1,
    }),
  ],
});
