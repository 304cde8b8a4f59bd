// no-unguarded-schedule on a job whose handler, a function the work calls, updates shared rows and
// also makes a call named for this instance as bookkeeping (`await progress.flush()` of a progress
// throttle, `stats.gauge(…)`): the name says nothing of the rows written beside it, so the job is
// reported. Still quiet: the same call made by the work itself (it says what the work is), a handler
// whose only effects are such calls and reads, and a handler whose write is keyed by this machine
// (`WHERE host = os.hostname()`).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'media' } };

/** A cron job running `handle()`, whose statements are `body`. */
const job = (...body: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import os from 'node:os';",
    "import { db } from './db';",
    "import { progressOf, stats } from './progress';",
    'async function handle(id: string): Promise<void> {',
    '  const progress = progressOf(id);',
    ...body.map((statement) => `  ${statement}`),
    '}',
    "cron.schedule('*/5 * * * *', async () => {",
    "  await handle('next');",
    '});',
  );

const markRunning = "await db.exports.update({ where: { id }, data: { status: 'running' } });";
const flush = 'await progress.flush();';

ruleTester.run('no-unguarded-schedule: bookkeeping beside shared writes', noUnguardedSchedule, {
  valid: [
    // the handler only reads and flushes its own progress buffer
    { settings, code: job('const row = await db.exports.findUnique({ where: { id } });', flush, "stats.gauge('export.size', row.size);") },
    // the handler's write is keyed by this machine: each replica touches its own row
    {
      settings,
      code: job("await db.query('UPDATE workers SET seen_at = now() WHERE host = $1', [os.hostname()]);", flush),
    },
    // named for this instance in the work itself, the call says what the work is
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "import { buffer } from './buffer';",
        "cron.schedule('*/5 * * * *', async () => {",
        '  await buffer.flush();',
        '});',
      ),
    },
  ],
  invalid: [
    // the handler marks the row and flushes its progress: the row is written at every replica
    guardedReport(settings, job(markRunning, flush), {
      line: 10,
      column: 30,
      after: 10,
      importAfter: 4,
      guard: "  if (!(await claimPeriod('media:file-10', { cron: '*/5 * * * *' }))) return;",
    }),
    // a gauge in the handler beside the update
    guardedReport(settings, job(markRunning, "stats.gauge('export.started', 1);"), {
      line: 10,
      column: 30,
      after: 10,
      importAfter: 4,
      guard: "  if (!(await claimPeriod('media:file-10', { cron: '*/5 * * * *' }))) return;",
    }),
  ],
});
