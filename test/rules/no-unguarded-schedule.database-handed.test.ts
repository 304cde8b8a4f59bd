// no-unguarded-schedule where a bare timer's work, written in place, only hands the database to
// another project module's function (`setInterval(() => void runLifecycle(db), ms)`, or a same-file
// `tick()` doing only that): the timer runs that module's job over the shared database each
// period, as when the function is handed by reference. Without the database handed over, a
// package's function, a name for this process's own upkeep, or work of its own beside the call,
// the timer is judged as before. And a worker loop taking the next job of a queue by any verb
// that does not plan one (`renderNextJob`) is a queue consumer; `scheduleNextJob` is not.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'api' } };

/** A module starting `work` every 30 s after opening the database, with `imports` first. */
const boot = (imports: string, ...work: string[]) => lines(imports, 'const database = await createDatabase();', ...work);

/** A worker looping over `step` with a pause. */
const worker = (imports: string, step: string) =>
  lines(
    imports,
    "import { setTimeout as sleep } from 'node:timers/promises';",
    'export async function runWorker() {',
    '  while (true) {',
    `    await ${step}();`,
    '    await sleep(100);',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule: database handed to another module', noUnguardedSchedule, {
  valid: [
    // no database handed: another module's function may be this process's upkeep (a health check)
    {
      settings,
      code: boot(
        "import { probeDependencies } from './health';",
        'setInterval(() => {',
        '  probeDependencies().catch((e) => console.error(e));',
        '}, 300_000);',
      ),
    },
    // a package's function handed the database
    { settings, code: boot("import { collectStats } from 'pg-stats';", 'setInterval(() => void collectStats(database), 30_000);') },
    // named for refreshing what this process holds
    { settings, code: boot("import { reloadConfig } from './config';", 'setInterval(() => void reloadConfig(database), 30_000);') },
    // work of its own beside the call: judged as this file's work (a local counter)
    {
      settings,
      code: boot(
        "import { runLifecycle } from './services/lifecycle';",
        'let runs = 0;',
        'setInterval(() => {',
        '  if (runs++ % 2) return;',
        '  void runLifecycle(database);',
        '}, 30_000);',
      ),
    },
    // a job worker taking the next job of a queue
    {
      settings,
      filename: 'src/workers/print-jobs-worker.ts',
      code: worker("import { renderNextJob } from '../render/render';", 'renderNextJob'),
    },
  ],
  invalid: [
    // the database handed to another module's sweep, its promise caught
    {
      settings,
      code: boot(
        "import { runLifecycle } from './services/lifecycle';",
        'setInterval(() => {',
        '  void runLifecycle(database).catch((e) => console.error(e));',
        '}, 30_000);',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 3,
          column: 13,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output: boot(
                "import { runLifecycle } from './services/lifecycle';\nimport { claimPeriod } from 'replica-guard';",
                'setInterval(async () => {',
                "  if (!(await claimPeriod('api:file-3', 30_000))) return;",
                '  void runLifecycle(database).catch((e) => console.error(e));',
                '}, 30_000);',
              ),
            },
          ],
        },
      ],
    },
    // through a same-file tick that keeps the result and logs it
    guardedReport(
      settings,
      boot(
        "import { runLifecycle } from './services/lifecycle';",
        'async function tick() {',
        '  const result = await runLifecycle(database);',
        '  console.log(result);',
        '}',
        'setInterval(() => void tick(), 30_000);',
      ),
      { line: 7, column: 13, guard: "  if (!(await claimPeriod('api:tick', 30_000))) return;", after: 3, importAfter: 1 },
    ),
    // a job worker planning the next job rather than taking it
    {
      settings,
      filename: 'src/workers/print-jobs-worker.ts',
      code: worker("import { scheduleNextJob } from './planner';", 'scheduleNextJob'),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 4, column: 3, suggestions: [] }],
    },
  ],
});
