// no-unguarded-schedule where the work is out of reach of the file: a bare timer handed another
// project module's function by reference runs that module's job (a package's function does not);
// a call named for refreshing state this process holds (`resetPriceTracker()`,
// `priceTracker.updatePrices()`, `reloadConfig()`) stays in the process, a shared write beside it
// still counts; a job named for such a refresh that writes nothing shared is quiet; a name about
// liveness (`beAlive`) is this instance's; a wrapper named for its lock (`lockedTick(…)`) coordinates
// what it runs; a timer redrawing the terminal is an operator's screen.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'bot' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/** One report at `line`:`column` whose one suggestion gives `output`. */
const reportedWith = (line: number, column: number, output: string) => [
  { messageId: 'unguardedSchedule' as const, line, column, suggestions: [{ messageId: 'addClaimPeriod' as const, output }] },
];

/** A chat client's ready handler arming `work` every minute, handed the client. */
const ready = (importLine: string, work: string) =>
  lines(importLine, "client.once('ready', () => {", `  setInterval(${work}, 60_000, client);`, '});');

/** A node-schedule job whose body is `body` (one line each), with `importLine` first. */
const job = (importLine: string, ...body: string[]) =>
  lines("import schedule from 'node-schedule';", importLine, "schedule.scheduleJob('*/5 * * * *', async () => {", ...body, '});');

/** A class whose `render()` writes a row and then, if `redraw`, clears the terminal; a timer runs it. */
const monitor = (redraw: boolean) =>
  lines(
    'class Monitor {',
    '  start() {',
    '    setInterval(() => {',
    '      this.render().catch(() => {});',
    '    }, 5_000);',
    '  }',
    '  async render() {',
    "    await this.db.query('UPDATE monitors SET seen_at = now()');",
    ...(redraw ? ['    console.clear();'] : []),
    "    console.log('ok');",
    '  }',
    '}',
  );

/** A timer running `name`, a function of the file inserting a row. */
const beacon = (name: string) =>
  lines(`setInterval(${name}, 60_000);`, `async function ${name}() {`, "  await db.query('INSERT INTO beacons (at) VALUES (now())');", '}');

/** A Nest job `updateConfig` every ten minutes, its body `body` (one line each). */
const configJob = (...body: string[]) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    'export class PairsJob {',
    "  @Cron('*/10 * * * *')",
    '  async updateConfig() {',
    ...body,
    '  }',
    '}',
  );

/** A loop that reads `read` and arms one timer per item handing it to another module's `fire`, then runs again in a minute. */
const dueLoop = (read: string) =>
  lines(
    "import { fire } from './fire';",
    'const pending = [];',
    'const timeouts = new Map();',
    'export async function runDueLoop() {',
    `  const due = ${read};`,
    '  for (const item of due) {',
    '    timeouts.set(item.id, setTimeout(() => fire(item), item.at - Date.now()));',
    '  }',
    '  setTimeout(() => runDueLoop(), 60_000);',
    '}',
  );

const DUE_LOOP_READ = 'await db.reminders.findMany({ where: { sent: false } })';
/** The guard the suggestion puts first in `runDueLoop`, rescheduling before it leaves. */
const DUE_LOOP_GUARDED = dueLoop(DUE_LOOP_READ)
  .replace("from './fire';", `from './fire';\n${IMPORT}`)
  .replace(
    'export async function runDueLoop() {',
    "export async function runDueLoop() {\n  if (!(await claimPeriod('bot:run-due-loop', 60_000))) { setTimeout(() => runDueLoop(), 60_000); return; }",
  );

ruleTester.run('no-unguarded-schedule: work out of reach of the file', noUnguardedSchedule, {
  valid: [
    // a package's function handed to a timer: not the project's job
    { settings, code: ready("import { collect } from 'gc-stats';", 'collect') },
    // a value a project function made (`lockedTick(…)` returns the locked tick): judged as that call
    {
      settings,
      code: lines(
        "import { lockedTick, Locks } from '../lib/locks';",
        "import { sendNotices } from './notices';",
        "const tick = lockedTick('notices', Locks.notices, sendNotices);",
        'setInterval(tick, 3_600_000);',
      ),
    },
    // a declared job handed through a wrapper named for its lock
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "import { lockedRun } from '../lib/locks';",
        "cron.schedule('0 * * * *', lockedRun('digest', async () => {",
        "  await db.query('DELETE FROM digests WHERE sent = true');",
        '}));',
      ),
    },
    // refreshing this process's tracker through an imported instance, by the method's name or the receiver's
    {
      settings,
      code: job("import priceTracker from '../lib/prices';", "  logger.info('prices');", '  await priceTracker.updatePrices();'),
    },
    { settings, code: job("import priceTracker from '../lib/prices';", '  priceTracker.resetPriceTracker();') },
    { settings, code: job("import { reloadConfig } from '../config';", '  await reloadConfig();') },
    // a job named for refreshing this process's configuration, reading through an injected service
    { settings, code: configJob('    const chains = await this.chainService.listChains();', '    this.pairs = chains.map((c) => c.id);') },
    // a liveness post of this process
    { settings, code: beacon('beAlive') },
    // another module's work named for this process's metrics or its chat presence
    { settings, code: ready("import { pushMetrics } from './jobs/push';", 'pushMetrics') },
    { settings, code: ready("import { rotatePresence } from './jobs/presence';", 'rotatePresence') },
    // a cache writing out the changes it gathered in this process
    {
      settings,
      code: lines("import { profileCache } from './profiles';", 'setInterval(() => profileCache.savePendingUpdates(), 30_000);'),
    },
    // a loop arming a timer per item of this process's own list
    { settings, code: dueLoop('pending.splice(0)') },
    // a screen redrawn for someone watching the shell
    { settings, code: monitor(true) },
  ],
  invalid: [
    // a ready handler arming another module's job, handed the client
    {
      settings,
      code: ready("import { checkDue } from './jobs/check-due';", 'checkDue'),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 3, column: 15, suggestions: [] }],
    },
    // the same through `require`, with nothing handed
    {
      settings,
      code: lines("const { disableExpired } = require('../services/expiry');", 'setInterval(disableExpired, 600_000);'),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 2, column: 13, suggestions: [] }],
    },
    // a loop arming a timer per row read from the database: every replica fires every row
    {
      settings,
      code: dueLoop(DUE_LOOP_READ),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 9,
          column: 14,
          suggestions: [{ messageId: 'addClaimPeriod' as const, output: DUE_LOOP_GUARDED }],
        },
      ],
    },
    // the same save on a store, not a holder of this process's state
    {
      settings,
      code: lines("import { profileStore } from './profiles';", 'setInterval(() => profileStore.savePendingUpdates(), 30_000);'),
      errors: reportedWith(
        2,
        13,
        lines(
          "import { profileStore } from './profiles';",
          IMPORT,
          'setInterval(async () => {',
          "  if (!(await claimPeriod('bot:file-2', 30_000))) return;",
          '  return profileStore.savePendingUpdates();',
          '}, 30_000);',
        ),
      ),
    },
    // metrics computed for everyone, not this process's own
    {
      settings,
      code: lines("const { computeDailyMetrics } = require('./jobs/daily');", 'setInterval(computeDailyMetrics, 3_600_000);'),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 2, column: 13, suggestions: [] }],
    },
    // a shared send beside the tracker's refresh
    {
      settings,
      code: job("import priceTracker from '../lib/prices';", '  await priceTracker.updatePrices();', '  await mailer.sendDigest();'),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 3,
          column: 37,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output: job(
                "import priceTracker from '../lib/prices';\n" + IMPORT,
                "  if (!(await claimPeriod('bot:file-3', { cron: '*/5 * * * *' }))) return;",
                '  await priceTracker.updatePrices();',
                '  await mailer.sendDigest();',
              ),
            },
          ],
        },
      ],
    },
    // a job named for a config refresh that writes a shared row
    guardedReport(settings, configJob("    await this.db.query('UPDATE pairs SET active = false');"), {
      line: 3,
      column: 3,
      guard: "    if (!(await claimPeriod('bot:update-config', { cron: '*/10 * * * *' }))) return;",
      after: 4,
      importAfter: 1,
    }),
    // a declared job handed through a wrapper that takes no lock
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "import { retried } from '../lib/retry';",
        "cron.schedule('0 * * * *', retried('digest', async () => {",
        "  await db.query('DELETE FROM digests WHERE sent = true');",
        '}));',
      ),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 3, column: 28, suggestions: [] }],
    },
    // a post that is not about liveness
    guardedReport(settings, beacon('postStatus'), {
      line: 1,
      column: 13,
      guard: "  if (!(await claimPeriod('bot:post-status', 60_000))) return;",
      after: 2,
      importAfter: 0,
    }),
    // the same monitor without the redraw: a shared write every five seconds
    {
      settings,
      code: monitor(false),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 3,
          column: 17,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output:
                IMPORT +
                '\n' +
                monitor(false).replace(
                  'setInterval(() => {',
                  "setInterval(async () => {\n      if (!(await claimPeriod('bot:file-3', 5_000))) return;",
                ),
            },
          ],
        },
      ],
    },
  ],
});
