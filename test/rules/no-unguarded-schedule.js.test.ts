// no-unguarded-schedule on plain JavaScript (espree): CommonJS `require` and destructured
// `require`, ESM JavaScript, and a suggestion that adds a `require` in CommonJS files.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { jsRuleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
// Accepted by ESLint at run time; rule-tester's TestLanguageOptions type does not list sourceType.
const script = { sourceType: 'commonjs' } as never;
const REQUIRE = "const { claimPeriod } = require('replica-guard');";
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const guard = (job: string, period: string, exit = 'return') => `if (!(await claimPeriod('billing:${job}', ${period}))) ${exit};`;

type Loc = { line: number; column: number; endLine?: number; endColumn?: number };
const unguarded = (loc: Loc, output?: string) => ({
  messageId: 'unguardedSchedule' as const,
  ...loc,
  suggestions: output === undefined ? [] : [{ messageId: 'addClaimPeriod' as const, output }],
});

jsRuleTester.run('no-unguarded-schedule (JavaScript)', noUnguardedSchedule, {
  valid: [
    // a function handed over by reference, its module out of reach, named for nothing shared: unknown, not reported
    {
      settings,
      languageOptions: script,
      code: lines(
        "const { rotateStatus } = require('../functions/status/rotateStatus');",
        "const { reportMetrics } = require('../functions/metrics');",
        'module.exports = {',
        "  name: 'ready',",
        '  async execute(client) {',
        '    setInterval(rotateStatus, 60_000, client);',
        '    setInterval(reportMetrics, 10_000);',
        '  },',
        '};',
      ),
    },
    {
      settings,
      languageOptions: script,
      code: lines(
        "const { claimPeriod } = require('replica-guard');",
        "const cron = require('node-cron');",
        "cron.schedule('0 * * * *', async () => {",
        "  if (!(await claimPeriod('billing:x', { cron: '0 * * * *' }))) return;",
        '  await bill();',
        '});',
      ),
    },
    {
      settings,
      languageOptions: script,
      code: lines(
        "const rg = require('replica-guard');",
        'setInterval(async () => {',
        "  if (!(await rg.claimPeriod('billing:x', 1000))) return;",
        '  await bill();',
        '}, 1000);',
      ),
    },
    {
      settings,
      languageOptions: script,
      code: lines("const { perReplica } = require('replica-guard');", 'setInterval(perReplica(() => metrics.flush()), 10000);'),
    },
    {
      settings,
      languageOptions: script,
      code: lines(
        "const cron = require('node-cron');",
        "cron.schedule('* * * * *', async () => { await sync(); }, { distributed: true });",
      ),
    },
    {
      settings,
      languageOptions: script,
      code: lines('const cron = require("./local-cron");', "cron.schedule('* * * * *', async () => { await sync(); });"),
    },
    {
      settings,
      languageOptions: script,
      code: lines('const sessions = new Map();', 'setInterval(function () { sessions.clear(); }, 60000);'),
    },
    {
      settings,
      code: lines(
        "import { runExclusive } from 'replica-guard';",
        "import { CronJob } from 'cron';",
        "new CronJob('0 * * * *', () => runExclusive('billing:close', 60000, async () => { await close(); }));",
      ),
    },
  ],
  invalid: [
    // require, then a new destructured require for the guard.
    {
      settings,
      languageOptions: script,
      code: lines(
        "'use strict';",
        "const cron = require('node-cron');",
        "cron.schedule('0 * * * *', async function bill() {",
        '  await invoices.bill();',
        '});',
      ),
      errors: [
        unguarded(
          { line: 3, column: 28 },
          lines(
            "'use strict';",
            "const cron = require('node-cron');",
            REQUIRE,
            "cron.schedule('0 * * * *', async function bill() {",
            `  ${guard('bill', "{ cron: '0 * * * *' }")}`,
            '  await invoices.bill();',
            '});',
          ),
        ),
      ],
    },
    // The module named in a template literal: the text test looks for the specifier between any quotes.
    {
      settings,
      languageOptions: script,
      code: lines(
        'const cron = require(`node-cron`);',
        "cron.schedule('0 * * * *', async function bill() {",
        '  await invoices.bill();',
        '});',
      ),
      errors: [
        unguarded(
          { line: 2, column: 28 },
          lines(
            'const cron = require(`node-cron`);',
            REQUIRE,
            "cron.schedule('0 * * * *', async function bill() {",
            `  ${guard('bill', "{ cron: '0 * * * *' }")}`,
            '  await invoices.bill();',
            '});',
          ),
        ),
      ],
    },
    // destructured require.
    {
      settings,
      languageOptions: script,
      code: lines(
        "const { CronJob } = require('cron');",
        "const job = new CronJob('0 5 * * *', async () => { await purge(); });",
        'job.start();',
      ),
      errors: [
        unguarded(
          { line: 2, column: 38 },
          lines(
            "const { CronJob } = require('cron');",
            REQUIRE,
            `const job = new CronJob('0 5 * * *', async () => { ${guard('job', "{ cron: '0 5 * * *' }")} await purge(); });`,
            'job.start();',
          ),
        ),
      ],
    },
    // require(...).member
    {
      settings,
      languageOptions: script,
      code: lines(
        "const scheduleJob = require('node-schedule').scheduleJob;",
        "scheduleJob('0 1 * * *', function rotate() { return api.rotateKeys(); });",
      ),
      errors: [
        unguarded(
          { line: 2, column: 26 },
          lines(
            "const scheduleJob = require('node-schedule').scheduleJob;",
            REQUIRE,
            `scheduleJob('0 1 * * *', async function rotate() { ${guard('rotate', "{ cron: '0 1 * * *' }")} return api.rotateKeys(); });`,
          ),
        ),
      ],
    },
    // require of croner, Cron() without new.
    {
      settings,
      languageOptions: script,
      code: lines("const { Cron } = require('croner');", "Cron('*/5 * * * *', async () => { await poll(); });"),
      errors: [
        unguarded(
          { line: 2, column: 21 },
          lines(
            "const { Cron } = require('croner');",
            REQUIRE,
            `Cron('*/5 * * * *', async () => { ${guard('jobs-2', "{ cron: '*/5 * * * *' }")} await poll(); });`,
          ),
        ),
      ],
      filename: 'jobs.js',
    },
    // timers/promises through require.
    {
      settings,
      languageOptions: script,
      code: lines(
        "const { setInterval: every } = require('node:timers/promises');",
        '(async () => {',
        '  for await (const _ of every(30000)) {',
        '    await refreshTokens();',
        '  }',
        '})();',
      ),
      errors: [
        unguarded(
          { line: 3, column: 25 },
          lines(
            "const { setInterval: every } = require('node:timers/promises');",
            REQUIRE,
            '(async () => {',
            '  for await (const _ of every(30000)) {',
            `    ${guard('jobs-3', '30000', 'continue')}`,
            '    await refreshTokens();',
            '  }',
            '})();',
          ),
        ),
      ],
      filename: 'jobs.js',
    },
    // toad-scheduler through require, task inline (a job named `ping` reads as per-replica: reportAll reports it).
    {
      options: [{ reportAll: true }],
      settings,
      languageOptions: script,
      code: lines(
        "const toad = require('toad-scheduler');",
        "scheduler.addSimpleIntervalJob(new toad.SimpleIntervalJob({ seconds: 30 }, new toad.Task('ping', function ping() { api.ping(); })));",
      ),
      errors: [
        unguarded(
          { line: 2, column: 98 },
          lines(
            "const toad = require('toad-scheduler');",
            REQUIRE,
            `scheduler.addSimpleIntervalJob(new toad.SimpleIntervalJob({ seconds: 30 }, new toad.Task('ping', async function ping() { ${guard('ping', '30000')} api.ping(); })));`,
          ),
        ),
      ],
    },
    // merges into an existing destructured require of replica-guard.
    {
      settings,
      languageOptions: script,
      code: lines("const { runOnce } = require('replica-guard');", 'setInterval(async function sync() { await api.sync(); }, 1000);'),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            "const { runOnce, claimPeriod } = require('replica-guard');",
            `setInterval(async function sync() { ${guard('sync', '1000')} await api.sync(); }, 1000);`,
          ),
        ),
      ],
    },
    // self-rescheduling setTimeout with an arrow loop (unknown work: reportAll reports it).
    {
      options: [{ reportAll: true }],
      settings,
      languageOptions: script,
      code: lines('const loop = async () => {', '  await drainOutbox();', '  setTimeout(loop, 1000);', '};', 'loop();'),
      errors: [
        unguarded(
          { line: 3, column: 14, endColumn: 18 },
          lines(
            REQUIRE,
            'const loop = async () => {',
            "  if (!(await claimPeriod('billing:loop', 1000))) { setTimeout(loop, 1000); return; }",
            '  await drainOutbox();',
            '  setTimeout(loop, 1000);',
            '};',
            'loop();',
          ),
        ),
      ],
    },
    // ESM JavaScript: default import of node-cron, an import added after it.
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "cron.schedule('*/30 * * * *', () => fetch('https://example.com/hook', { method: 'POST' }));",
      ),
      errors: [
        unguarded(
          { line: 2, column: 31 },
          lines(
            "import cron from 'node-cron';",
            IMPORT,
            "cron.schedule('*/30 * * * *', async () => {",
            `  ${guard('jobs-2', "{ cron: '*/30 * * * *' }")}`,
            "  return fetch('https://example.com/hook', { method: 'POST' });",
            '});',
          ),
        ),
      ],
      filename: 'jobs.mjs',
    },
    // ESM JavaScript: a method-shorthand onTick is made async in place.
    {
      settings,
      code: lines("import { CronJob } from 'cron';", "CronJob.from({ cronTime: '0 0 * * 0', onTick() { mailer.sendWeekly(); } });"),
      errors: [
        unguarded(
          { line: 2, column: 45, endColumn: 72 },
          lines(
            "import { CronJob } from 'cron';",
            IMPORT,
            `CronJob.from({ cronTime: '0 0 * * 0', async onTick() { ${guard('file-2', "{ cron: '0 0 * * 0' }")} mailer.sendWeekly(); } });`,
          ),
        ),
      ],
    },
    // the same by name as the call `() => pruneRooms(client)`: a function handed over by reference whose module is out of reach
    {
      settings,
      languageOptions: script,
      code: lines(
        "const { pruneRooms } = require('../functions/rooms/pruneRooms');",
        'module.exports = {',
        "  name: 'ready',",
        '  async execute(client) {',
        '    setInterval(pruneRooms, 10 * 60_000, client);',
        '  },',
        '};',
      ),
      errors: [unguarded({ line: 5, column: 17 })],
    },
  ],
});
