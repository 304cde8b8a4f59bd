// no-unguarded-schedule on a cron job that runs its task through a shared lock's coalescing call
// (`sharedLock.coalesce(key, () => task())`: the replicas asking at once share one run under the
// lock), also inside a tracing scope of the wrapper that schedules it. Quiet; the twin coalescing
// through a receiver not named for a lock (an in-process request coalescer) is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'atlas' } };

/** A wrapper scheduling each task with node-cron, its run handed to `through` inside a tracing span. */
const wrapper = (through: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { tracer } from './tracing';",
    "import { sharedLock, pending } from './locks';",
    'export function everyCron(label: string, expr: string, task: () => Promise<void>) {',
    '  cron.schedule(expr, () => {',
    "    tracer.span('job', () =>",
    `      ${through}.coalesce(['job', label], () => task(), { ttl: 60_000 })`,
    "        .then(() => tracer.note('done'))",
    '    );',
    '  });',
    '}',
  );

/** A nightly roll-up whose update runs through `through`'s coalescing call. */
const rollup = (through: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { pool } from './db';",
    "import { sharedLock, pending } from './locks';",
    "cron.schedule('20 1 * * *', async () => {",
    `  await ${through}.coalesce('rollup', () => pool.query('UPDATE totals SET day = day + 1'));`,
    '});',
  );

ruleTester.run('no-unguarded-schedule: a lock’s coalescing call', noUnguardedSchedule, {
  valid: [
    { settings, code: wrapper('sharedLock') },
    { settings, code: rollup('sharedLock') },
  ],
  invalid: [
    // An in-process coalescer: every replica still runs the update.
    guardedReport(settings, rollup('pending'), {
      line: 4,
      column: 29,
      guard: "  if (!(await claimPeriod('atlas:file-4', { cron: '20 1 * * *' }))) return;",
      after: 4,
      importAfter: 3,
    }),
  ],
});
