// no-unguarded-schedule in a file named for one job (`expiry-job.ts`, `expiryJob.ts`, `expiry.job.ts`):
// its timer is that job's schedule, a declared job, so work out of reach (a service of another module)
// counts. The same timer in a file named for something else, or in `job.ts` alone (as often a queue's
// model of a job), is a bare timer, reported only for a shared effect it is seen to reach.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'api' } };

/** An expiry job whose work calls a service of another module, armed by an exported starter. */
const expiry = lines(
  "import { inventory } from '../services/inventory';",
  'export async function runExpiry() {',
  '  try {',
  '    await inventory.rebalance();',
  '  } catch (error) {',
  "    console.error('expiry failed', error);",
  '  }',
  '}',
  'export function startExpiry() {',
  '  setInterval(() => {',
  '    void runExpiry();',
  '  }, 30_000);',
  '}',
);

/** Reported at the arrow, the guard put first in the function it runs. */
const reported = [
  {
    messageId: 'unguardedSchedule' as const,
    line: 10,
    column: 15,
    suggestions: [
      {
        messageId: 'addClaimPeriod' as const,
        output: expiry
          .replace("from '../services/inventory';", "from '../services/inventory';\nimport { claimPeriod } from 'replica-guard';")
          .replace(
            'export async function runExpiry() {',
            "export async function runExpiry() {\n  if (!(await claimPeriod('api:run-expiry', 30_000))) return;",
          ),
      },
    ],
  },
];

ruleTester.run('no-unguarded-schedule: files named for one job', noUnguardedSchedule, {
  valid: [
    { settings, filename: 'src/jobs/expiry.ts', code: expiry },
    { settings, filename: 'src/queue/job.ts', code: expiry },
  ],
  invalid: [
    { settings, filename: 'src/jobs/expiry-job.ts', code: expiry, errors: reported },
    { settings, filename: 'src/jobs/expiryJob.ts', code: expiry, errors: reported },
    { settings, filename: 'src/expiry.job.ts', code: expiry, errors: reported },
  ],
});
