// no-unguarded-schedule on jobs handed to a framework's cron service: Strapi's
// `strapi.cron.add({ … })` in `bootstrap` registers each job in every instance of the app. A job
// keyed by its rule (`'0 * * * *': async () => …`) or given as `{ task, options: { rule } }` is a
// declared job; on another receiver (`scheduler.cron.add`) the call is not Strapi's.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'pantry' } };

const bootstrap = (receiver: string, ...jobs: string[]) =>
  lines('export default {', '  async bootstrap({ strapi }) {', `    ${receiver}.cron.add({`, ...jobs, '    });', '  },', '};');

const keyed = [
  "      '*/10 * * * *': async () => {",
  "        await strapi.db.query('api::voucher.voucher').deleteMany({ where: { expiresAt: { $lt: new Date() } } });",
  '      },',
];
const tasked = [
  '      lapseVouchers: {',
  '        task: async ({ strapi }) => {',
  "          await strapi.service('api::voucher.voucher').lapseUnused();",
  '        },',
  "        options: { rule: '0 4 * * *', tz: 'Europe/Oslo' },",
  '      },',
];

ruleTester.run('no-unguarded-schedule (framework cron services)', noUnguardedSchedule, {
  valid: [
    // Not Strapi's application object.
    { settings, code: bootstrap('scheduler', ...keyed) },
    // Guarded at its start.
    {
      settings,
      code: lines(
        "import { claimPeriod } from 'replica-guard';",
        bootstrap(
          'strapi',
          "      '*/10 * * * *': async () => {",
          "        if (!(await claimPeriod('pantry:lapse', { cron: '*/10 * * * *' }))) return;",
          "        await strapi.db.query('api::voucher.voucher').deleteMany({ where: { expiresAt: { $lt: new Date() } } });",
          '      },',
        ),
      ),
    },
    // A property that holds no job.
    { settings, code: bootstrap('strapi', '      enabled: true,') },
  ],
  invalid: [
    // Keyed by its rule: the job goes by the file and line of the call.
    guardedReport(settings, bootstrap('strapi', ...keyed), {
      line: 3,
      column: 5,
      guard: "        if (!(await claimPeriod('pantry:file-3', { cron: '*/10 * * * *' }))) return;",
      after: 4,
      importAfter: 0,
    }),
    guardedReport(settings, bootstrap('this.strapi', ...tasked), {
      line: 3,
      column: 5,
      guard: "          if (!(await claimPeriod('pantry:lapse-vouchers', { cron: '0 4 * * *', tz: 'Europe/Oslo' }))) return;",
      after: 5,
      importAfter: 0,
    }),
  ],
});
