// no-unguarded-schedule in a file named for one job (`reaper-job.ts`, `reaperJob.ts`, `reaper.job.ts`):
// its timer is that job's schedule, a declared job, so work out of reach (a service of another module)
// counts. The same timer in a file named for something else, or in `job.ts` alone (as often a queue's
// model of a job), is a bare timer, reported only for a shared effect it is seen to reach.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'api' } };

/** A reaper whose work calls a service of another module, armed by an exported starter. */
const reaper = lines(
  "import { queueService } from '../services/queue';",
  'export async function runReaper() {',
  '  try {',
  '    await queueService.reclaimAbandoned();',
  '  } catch (error) {',
  "    console.error('reaper failed', error);",
  '  }',
  '}',
  'export function startReaper() {',
  '  setInterval(() => {',
  '    void runReaper();',
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
        output: reaper
          .replace("from '../services/queue';", "from '../services/queue';\nimport { claimPeriod } from 'replica-guard';")
          .replace(
            'export async function runReaper() {',
            "export async function runReaper() {\n  if (!(await claimPeriod('api:run-reaper', 30_000))) return;",
          ),
      },
    ],
  },
];

ruleTester.run('no-unguarded-schedule: files named for one job', noUnguardedSchedule, {
  valid: [
    { settings, filename: 'src/jobs/reaper.ts', code: reaper },
    { settings, filename: 'src/queue/job.ts', code: reaper },
  ],
  invalid: [
    { settings, filename: 'src/jobs/reaper-job.ts', code: reaper, errors: reported },
    { settings, filename: 'src/jobs/reaperJob.ts', code: reaper, errors: reported },
    { settings, filename: 'src/reaper.job.ts', code: reaper, errors: reported },
  ],
});
