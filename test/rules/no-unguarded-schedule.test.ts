// no-unguarded-schedule on TypeScript (@typescript-eslint/parser): every scheduler of the
// catalogue, every import style, guarded and unguarded work, and the suggestion's exact output.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const guard = (job: string, period: string, exit = 'return') => `if (!(await claimPeriod('billing:${job}', ${period}))) ${exit};`;
const CRON = "import cron from 'node-cron';";

type Loc = { line: number; column: number; endLine?: number; endColumn?: number };
const unguarded = (loc: Loc, output?: string) => ({
  messageId: 'unguardedSchedule' as const,
  ...loc,
  suggestions: output === undefined ? [] : [{ messageId: 'addClaimPeriod' as const, output }],
});

ruleTester.run('no-unguarded-schedule', noUnguardedSchedule, {
  valid: [
    // Browser code (found on the application corpus): a tab's timers run per tab, not per replica.
    { settings, code: lines("document.body.classList.add('open');", 'setInterval(async () => { await api.sync(); }, 1000);') },
    { settings, code: lines('setInterval(async () => { await fetch(window.location.href, { method: "POST" }); }, 1000);') },
    // A React effect's timer runs in the browser while the component is mounted.
    {
      settings,
      code: lines(
        "import { useEffect } from 'react';",
        'export function Clock() {',
        '  useEffect(() => {',
        '    const id = setInterval(async () => { await api.sync(); }, 1000);',
        '    return () => clearInterval(id);',
        '  }, []);',
        '}',
      ),
    },
    {
      settings,
      code: lines(
        "const r = require('react');",
        'function Carousel() {',
        '  (0, r.useEffect)(() => {',
        '    const id = setInterval(async () => { await api.sync(); }, 1000);',
        '    return () => clearInterval(id);',
        '  }, []);',
        '}',
      ),
    },
    // A timer wrapper forwards its caller's work: the caller's schedule is the one to guard.
    { settings, code: 'export const systemClock = { setInterval: (fn, ms) => setInterval(fn, ms) };' },
    // A setTimeout loop inside a promise executor is a wait, not a job.
    {
      settings,
      code: lines(
        'await new Promise((resolve) => {',
        '  const tick = async () => {',
        '    if (await api.ready()) return resolve();',
        '    setTimeout(tick, 1000);',
        '  };',
        '  tick();',
        '});',
      ),
    },
    // The guard forms: negated check, `!await`, positive check, result in a const, `=== false`.
    { settings, code: lines(IMPORT, 'setInterval(async () => {', `  ${guard('sweep', '60_000')}`, '  await sweep();', '}, 60_000);') },
    {
      settings,
      code: lines(
        IMPORT,
        'setInterval(async () => {',
        "  if (!await claimPeriod('billing:sweep', 60_000)) return;",
        '  await sweep();',
        '}, 60_000);',
      ),
    },
    {
      settings,
      code: lines(
        IMPORT,
        'setInterval(async () => {',
        "  if (await claimPeriod('billing:sweep', 60_000)) {",
        '    await sweep();',
        '  }',
        '}, 60_000);',
      ),
    },
    {
      settings,
      code: lines(
        IMPORT,
        'setInterval(async () => {',
        "  const ok = await claimPeriod('billing:sweep', 60_000);",
        '  if (!ok) return;',
        '  await sweep();',
        '}, 60_000);',
      ),
    },
    {
      settings,
      code: lines(
        IMPORT,
        'setInterval(async () => {',
        "  if ((await claimPeriod('billing:sweep', 60_000)) === false) { return; }",
        '  await sweep();',
        '}, 60_000);',
      ),
    },
    // Namespace and aliased guard imports.
    {
      settings,
      code: lines(
        "import * as rg from 'replica-guard';",
        CRON,
        "cron.schedule('0 * * * *', async () => {",
        "  if (!(await rg.claimPeriod('billing:x', { cron: '0 * * * *' }))) return;",
        '  await bill();',
        '});',
      ),
    },
    {
      settings,
      code: lines(
        "import { claimPeriod as claim } from 'replica-guard';",
        'setInterval(async () => {',
        "  if (!(await claim('billing:x', 1000))) return;",
        '  await bill();',
        '}, 1000);',
      ),
    },
    // The body runs inside runExclusive / runOnce.
    {
      settings,
      code: lines(
        "import { runExclusive } from 'replica-guard';",
        "setInterval(() => runExclusive('billing:sweep', 30_000, async () => { await sweep(); }), 60_000);",
      ),
    },
    {
      settings,
      code: lines(
        "import { runOnce } from 'replica-guard';",
        CRON,
        "cron.schedule('0 3 * * *', async () => {",
        "  await runOnce('billing:backup', 86_400_000, async () => { await backup(); });",
        '});',
      ),
    },
    // Each side effect under claimOnce.
    {
      settings,
      code: lines(
        "import { claimOnce } from 'replica-guard';",
        'setInterval(async () => {',
        '  const tasks = await db.query("select * from tasks");',
        '  for (const task of tasks) {',
        '    if (await claimOnce(`notify:${task.id}`, 86_400_000)) await notify(task);',
        '  }',
        '}, 60_000);',
      ),
    },
    // perReplica marks work every replica must run, inline or by name.
    {
      settings,
      code: lines(
        "import { perReplica } from 'replica-guard';",
        'setInterval(perReplica(async () => { await metrics.flush(); }), 10_000);',
      ),
    },
    {
      settings,
      code: lines(
        "import { perReplica } from 'replica-guard';",
        'const flush = perReplica(async () => { await metrics.flush(); });',
        'setInterval(flush, 10_000);',
      ),
    },
    // node-cron 4 coordinates `distributed: true` jobs itself.
    { settings, code: lines(CRON, "cron.schedule('*/5 * * * *', async () => { await sync(); }, { distributed: true });") },
    // In-process work is not flagged by default.
    { settings, code: 'const cache = new Map<string, number>();\nsetInterval(() => cache.clear(), 60_000);' },
    { settings, code: 'let counter = 0;\nsetInterval(() => { counter = 0; logger.info("reset"); }, 1000);' },
    {
      settings,
      code: lines(
        'const seen = new Set<string>();',
        'function prune() {',
        '  seen.clear();',
        '  console.log("pruned");',
        '}',
        'setInterval(prune, 5000);',
      ),
    },
    // Names alone do not make a scheduler: a local `schedule`, a `CronJob` from elsewhere, a shadowed setInterval.
    {
      settings,
      code: lines(
        'const cron = { schedule(expr: string, fn: () => void) {} };',
        "cron.schedule('* * * * *', async () => { await sync(); });",
      ),
    },
    { settings, code: lines("import { CronJob } from './my-cron';", "new CronJob('* * * * *', async () => { await sync(); });") },
    {
      settings,
      code: lines(
        'function start(setInterval: (fn: () => void, ms: number) => void) {',
        '  setInterval(async () => { await sync(); }, 1000);',
        '}',
      ),
    },
    {
      settings,
      code: lines("import { Cron } from './decorators';", 'class Jobs {', "  @Cron('0 * * * *')", '  async run() { await sync(); }', '}'),
    },
    // A one-off setTimeout does not repeat.
    { settings, code: 'setTimeout(async () => { await warmUp(); }, 5000);' },
    // timers/promises setInterval outside a `for await` is not a loop we can see.
    { settings, code: "import { setInterval } from 'node:timers/promises';\nconst ticks = setInterval(1000);" },
    // Work handed to a distributed queue with a dedupe id is coordinated by the queue.
    {
      settings,
      code: lines(
        "import { Queue } from 'bullmq';",
        "const queue = new Queue('reports');",
        'setInterval(async () => {',
        "  await queue.add('daily', {}, { jobId: `daily:${today()}` });",
        '}, 60_000);',
      ),
    },
    // In-house guards named in settings, with and without a module.
    {
      settings: { 'replica-guard': { service: 'billing', guards: ['withLease'] } },
      code: "setInterval(async () => {\n  if (!(await withLease('sweep'))) return;\n  await sweep();\n}, 1000);",
    },
    {
      settings: { 'replica-guard': { service: 'billing', guards: [{ module: '@acme/jobs', name: 'exclusive' }] } },
      code: "import { exclusive } from '@acme/jobs';\nsetInterval(() => exclusive('sweep', async () => { await sweep(); }), 1000);",
    },
    // A guarded named function, resolved by name.
    {
      settings,
      code: lines(
        IMPORT,
        'async function sweep() {',
        `  ${guard('sweep', '60_000')}`,
        '  await db.query("delete from sessions");',
        '}',
        'setInterval(sweep, 60_000);',
      ),
    },
    // A guarded NestJS method.
    {
      settings,
      code: lines(
        "import { Cron } from '@nestjs/schedule';",
        IMPORT,
        'class Reports {',
        "  @Cron('0 * * * *')",
        '  async hourly() {',
        `    ${guard('hourly', "{ cron: '0 * * * *' }")}`,
        '    await this.mailer.send();',
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    // Global setInterval, inline async arrow; the import goes above the first statement.
    {
      settings,
      code: lines('setInterval(async () => {', '  await sendReminders();', '}, 60_000);'),
      errors: [
        unguarded(
          { line: 1, column: 13, endLine: 1, endColumn: 25 },
          lines(IMPORT, 'setInterval(async () => {', `  ${guard('app-1', '60_000')}`, '  await sendReminders();', '}, 60_000);'),
        ),
      ],
      filename: 'app.ts',
    },
    // A function declaration by name; the import goes after the last import.
    {
      settings,
      code: lines(
        "import { db } from './db';",
        'setInterval(sweepRenewals, 5 * 60 * 1000);',
        'async function sweepRenewals() {',
        "  await db.query('update subscriptions set renewed = true');",
        '}',
      ),
      errors: [
        unguarded(
          { line: 2, column: 13, endLine: 2, endColumn: 26 },
          lines(
            "import { db } from './db';",
            IMPORT,
            'setInterval(sweepRenewals, 5 * 60 * 1000);',
            'async function sweepRenewals() {',
            `  ${guard('sweep-renewals', '5 * 60 * 1000')}`,
            "  await db.query('update subscriptions set renewed = true');",
            '}',
          ),
        ),
      ],
    },
    // A const arrow by name, the interval constant kept as written.
    {
      settings,
      code: lines(
        'const FIVE_MINUTES = 300_000;',
        'const expireHolds = async () => {',
        '  await holds.expire();',
        '};',
        'setInterval(expireHolds, FIVE_MINUTES);',
      ),
      errors: [
        unguarded(
          { line: 5, column: 13, endLine: 5, endColumn: 24 },
          lines(
            IMPORT,
            'const FIVE_MINUTES = 300_000;',
            'const expireHolds = async () => {',
            `  ${guard('expire-holds', 'FIVE_MINUTES')}`,
            '  await holds.expire();',
            '};',
            'setInterval(expireHolds, FIVE_MINUTES);',
          ),
        ),
      ],
    },
    // this.method.bind(this): the method is made async, its `void` return type a Promise.
    {
      options: [{ reportAll: true }],
      settings,
      code: lines(
        'export class Renewals {',
        '  start() {',
        '    setInterval(this.sweep.bind(this), 60_000);',
        '  }',
        '  private sweep(): void {',
        '    this.db.query("x");',
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 17, endLine: 3, endColumn: 38 },
          lines(
            IMPORT,
            'export class Renewals {',
            '  start() {',
            '    setInterval(this.sweep.bind(this), 60_000);',
            '  }',
            '  private async sweep(): Promise<void> {',
            `    ${guard('sweep', '60_000')}`,
            '    this.db.query("x");',
            '  }',
            '}',
          ),
        ),
      ],
    },
    // () => this.method(): the wrapper resolves to the method.
    {
      settings,
      code: lines(
        'class Reminders {',
        '  start() {',
        '    setInterval(() => this.remind(), 1000);',
        '  }',
        '  async remind() {',
        '    await this.mail.send();',
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 17, endLine: 3, endColumn: 36 },
          lines(
            IMPORT,
            'class Reminders {',
            '  start() {',
            '    setInterval(() => this.remind(), 1000);',
            '  }',
            '  async remind() {',
            `    ${guard('remind', '1000')}`,
            '    await this.mail.send();',
            '  }',
            '}',
          ),
        ),
      ],
    },
    // this.method with an arrow-valued class property.
    {
      options: [{ reportAll: true }],
      settings,
      code: lines(
        'class Outbox {',
        '  constructor() {',
        '    setInterval(this.flush, 2000);',
        '  }',
        '  flush = async () => {',
        '    await this.publisher.publish();',
        '  };',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 17, endLine: 3, endColumn: 27 },
          lines(
            IMPORT,
            'class Outbox {',
            '  constructor() {',
            '    setInterval(this.flush, 2000);',
            '  }',
            '  flush = async () => {',
            `    ${guard('flush', '2000')}`,
            '    await this.publisher.publish();',
            '  };',
            '}',
          ),
        ),
      ],
    },
    // A synchronous function with an outside call is made async.
    {
      options: [{ reportAll: true }],
      settings,
      code: lines('function chargeCards() {', '  stripe.charges.create({ amount: 100 });', '}', 'setInterval(chargeCards, 86_400_000);'),
      errors: [
        unguarded(
          { line: 4, column: 13, endLine: 4, endColumn: 24 },
          lines(
            IMPORT,
            'async function chargeCards() {',
            `  ${guard('charge-cards', '86_400_000')}`,
            '  stripe.charges.create({ amount: 100 });',
            '}',
            'setInterval(chargeCards, 86_400_000);',
          ),
        ),
      ],
    },
    // An expression-bodied arrow becomes a block.
    {
      settings,
      code: lines("import { sendDigest } from './digest';", 'setInterval(() => sendDigest(), 3_600_000);'),
      errors: [
        unguarded(
          { line: 2, column: 13, endLine: 2, endColumn: 31 },
          lines(
            "import { sendDigest } from './digest';",
            IMPORT,
            'setInterval(async () => {',
            `  ${guard('app-2', '3_600_000')}`,
            '  return sendDigest();',
            '}, 3_600_000);',
          ),
        ),
      ],
      filename: 'app.ts',
    },
    // A .then chain without await is still outside work.
    {
      settings,
      code: 'setInterval(() => { fetchRates().then(saveRates); }, 10_000);',
      errors: [
        unguarded(
          { line: 1, column: 13, endLine: 1, endColumn: 52 },
          lines(IMPORT, `setInterval(async () => { ${guard('jobs-1', '10_000')} fetchRates().then(saveRates); }, 10_000);`),
        ),
      ],
      filename: 'jobs.ts',
    },
    // redis.set is not a Map: the receiver decides.
    {
      settings,
      code: "setInterval(() => { redis.set('last-run', Date.now()); }, 1000);",
      errors: [
        unguarded(
          { line: 1, column: 13 },
          lines(IMPORT, `setInterval(async () => { ${guard('jobs-1', '1000')} redis.set('last-run', Date.now()); }, 1000);`),
        ),
      ],
      filename: 'jobs.ts',
    },
    // globalThis.setInterval and setInterval imported from node:timers.
    {
      options: [{ reportAll: true }],
      settings,
      code: 'globalThis.setInterval(async function poll() { await poll2(); }, 500);',
      errors: [
        unguarded(
          { line: 1, column: 24, endLine: 1, endColumn: 64 },
          lines(IMPORT, `globalThis.setInterval(async function poll() { ${guard('poll', '500')} await poll2(); }, 500);`),
        ),
      ],
    },
    {
      settings,
      code: lines("import { setInterval as every } from 'node:timers';", 'every(async () => { await sync(); }, 1000);'),
      errors: [
        unguarded(
          { line: 2, column: 7 },
          lines(
            "import { setInterval as every } from 'node:timers';",
            IMPORT,
            `every(async () => { ${guard('jobs-2', '1000')} await sync(); }, 1000);`,
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    // A self-rescheduling setTimeout loop.
    {
      options: [{ reportAll: true }],
      settings,
      code: lines('async function tick() {', '  await reconcile();', '  setTimeout(tick, 15_000);', '}', 'tick();'),
      errors: [
        unguarded(
          { line: 3, column: 14, endLine: 3, endColumn: 18 },
          lines(
            IMPORT,
            'async function tick() {',
            "  if (!(await claimPeriod('billing:tick', 15_000))) { setTimeout(tick, 15_000); return; }",
            '  await reconcile();',
            '  setTimeout(tick, 15_000);',
            '}',
            'tick();',
          ),
        ),
      ],
    },
    // timers/promises setInterval in a for-await loop: the loop body is the work.
    {
      settings,
      code: lines(
        "import { setInterval as every } from 'node:timers/promises';",
        'export async function run() {',
        '  for await (const _ of every(60_000)) {',
        '    await sweep();',
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 25, endLine: 3, endColumn: 30 },
          lines(
            "import { setInterval as every } from 'node:timers/promises';",
            IMPORT,
            'export async function run() {',
            '  for await (const _ of every(60_000)) {',
            `    ${guard('run', '60_000', 'continue')}`,
            '    await sweep();',
            '  }',
            '}',
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    {
      settings,
      code: lines(
        "import * as timers from 'timers/promises';",
        'for await (const now of timers.setInterval(1000, Date.now())) {',
        '  await report(now);',
        '}',
      ),
      errors: [
        unguarded(
          { line: 2, column: 25 },
          lines(
            "import * as timers from 'timers/promises';",
            IMPORT,
            'for await (const now of timers.setInterval(1000, Date.now())) {',
            `  ${guard('jobs-2', '1000', 'continue')}`,
            '  await report(now);',
            '}',
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    // node-cron: default, named, namespace imports; createTask; tz passed through.
    {
      settings,
      code: lines(CRON, "cron.schedule('0 * * * *', async function sendInvoices() {", '  await invoices.send();', '});'),
      errors: [
        unguarded(
          { line: 2, column: 28, endLine: 2, endColumn: 58 },
          lines(
            CRON,
            IMPORT,
            "cron.schedule('0 * * * *', async function sendInvoices() {",
            `  ${guard('send-invoices', "{ cron: '0 * * * *' }")}`,
            '  await invoices.send();',
            '});',
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import { schedule } from 'node-cron';",
        "schedule('30 2 * * *', async () => { await purge(); }, { timezone: 'Europe/Paris', name: 'nightly-purge' });",
      ),
      errors: [
        unguarded(
          { line: 2, column: 24 },
          lines(
            "import { schedule } from 'node-cron';",
            IMPORT,
            `schedule('30 2 * * *', async () => { ${guard('nightly-purge', "{ cron: '30 2 * * *', tz: 'Europe/Paris' }")} await purge(); }, { timezone: 'Europe/Paris', name: 'nightly-purge' });`,
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import * as nodeCron from 'node-cron';",
        "const task = nodeCron.createTask('*/10 * * * *', async () => { await sync(); });",
        'task.start();',
      ),
      errors: [
        unguarded(
          { line: 2, column: 50 },
          lines(
            "import * as nodeCron from 'node-cron';",
            IMPORT,
            `const task = nodeCron.createTask('*/10 * * * *', async () => { ${guard('task', "{ cron: '*/10 * * * *' }")} await sync(); });`,
            'task.start();',
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(CRON, "cron.schedule('* * * * *', async () => { await sync(); }, { distributed: false });"),
      errors: [
        unguarded(
          { line: 2, column: 28 },
          lines(
            CRON,
            IMPORT,
            `cron.schedule('* * * * *', async () => { ${guard('jobs-2', "{ cron: '* * * * *' }")} await sync(); }, { distributed: false });`,
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    // cron: new CronJob with a positional time zone, CronJob.from, an aliased import.
    {
      settings,
      code: lines(
        "import { CronJob } from 'cron';",
        "const nightly = new CronJob('0 0 * * *', async () => { await closePeriod(); }, null, true, 'Europe/Berlin');",
      ),
      errors: [
        unguarded(
          { line: 2, column: 42 },
          lines(
            "import { CronJob } from 'cron';",
            IMPORT,
            `const nightly = new CronJob('0 0 * * *', async () => { ${guard('nightly', "{ cron: '0 0 * * *', tz: 'Europe/Berlin' }")} await closePeriod(); }, null, true, 'Europe/Berlin');`,
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import { CronJob } from 'cron';",
        'CronJob.from({',
        "  cronTime: '0 9 * * 1',",
        '  onTick: async () => { await weeklyReport(); },',
        "  timeZone: 'UTC',",
        '  start: true,',
        '});',
      ),
      errors: [
        unguarded(
          { line: 2, column: 1 },
          lines(
            "import { CronJob } from 'cron';",
            IMPORT,
            'CronJob.from({',
            "  cronTime: '0 9 * * 1',",
            `  onTick: async () => { ${guard('jobs-2', "{ cron: '0 9 * * 1', tz: 'UTC' }")} await weeklyReport(); },`,
            "  timeZone: 'UTC',",
            '  start: true,',
            '});',
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    {
      settings,
      code: lines(
        "import { CronJob as Job } from 'cron';",
        'async function expire() { await db.expire(); }',
        "new Job('*/15 * * * *', expire).start();",
      ),
      errors: [
        unguarded(
          { line: 3, column: 25, endColumn: 31 },
          lines(
            "import { CronJob as Job } from 'cron';",
            IMPORT,
            `async function expire() { ${guard('expire', "{ cron: '*/15 * * * *' }")} await db.expire(); }`,
            "new Job('*/15 * * * *', expire).start();",
          ),
        ),
      ],
    },
    // croner: new Cron with the callback second, Cron() with options and the callback third.
    {
      settings,
      code: lines("import { Cron } from 'croner';", "new Cron('*/5 * * * *', async () => { await poll(); });"),
      errors: [
        unguarded(
          { line: 2, column: 25 },
          lines(
            "import { Cron } from 'croner';",
            IMPORT,
            `new Cron('*/5 * * * *', async () => { ${guard('jobs-2', "{ cron: '*/5 * * * *' }")} await poll(); });`,
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    {
      settings,
      code: lines(
        "import { Cron } from 'croner';",
        "Cron('0 * * * *', { timezone: 'Asia/Tokyo', name: 'hourly-sync' }, async () => { await sync(); });",
      ),
      errors: [
        unguarded(
          { line: 2, column: 68 },
          lines(
            "import { Cron } from 'croner';",
            IMPORT,
            `Cron('0 * * * *', { timezone: 'Asia/Tokyo', name: 'hourly-sync' }, async () => { ${guard('hourly-sync', "{ cron: '0 * * * *', tz: 'Asia/Tokyo' }")} await sync(); });`,
          ),
        ),
      ],
    },
    // node-schedule: two and three arguments, `{ rule, tz }`, a RecurrenceRule (no period to suggest).
    {
      settings,
      code: lines("import * as schedule from 'node-schedule';", "schedule.scheduleJob('0 6 * * *', async () => { await sendDigest(); });"),
      errors: [
        unguarded(
          { line: 2, column: 35 },
          lines(
            "import * as schedule from 'node-schedule';",
            IMPORT,
            `schedule.scheduleJob('0 6 * * *', async () => { ${guard('jobs-2', "{ cron: '0 6 * * *' }")} await sendDigest(); });`,
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    {
      settings,
      code: lines(
        "import { scheduleJob } from 'node-schedule';",
        "scheduleJob('morning-digest', '0 6 * * *', async () => { await sendDigest(); });",
      ),
      errors: [
        unguarded(
          { line: 2, column: 44 },
          lines(
            "import { scheduleJob } from 'node-schedule';",
            IMPORT,
            `scheduleJob('morning-digest', '0 6 * * *', async () => { ${guard('morning-digest', "{ cron: '0 6 * * *' }")} await sendDigest(); });`,
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import schedule from 'node-schedule';",
        "schedule.scheduleJob({ rule: '0 0 1 * *', tz: 'America/New_York' }, async () => { await invoice(); });",
      ),
      errors: [
        unguarded(
          { line: 2, column: 69 },
          lines(
            "import schedule from 'node-schedule';",
            IMPORT,
            `schedule.scheduleJob({ rule: '0 0 1 * *', tz: 'America/New_York' }, async () => { ${guard('jobs-2', "{ cron: '0 0 1 * *', tz: 'America/New_York' }")} await invoice(); });`,
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    {
      settings,
      code: lines(
        "import schedule from 'node-schedule';",
        'const rule = new schedule.RecurrenceRule();',
        'rule.minute = 0;',
        'schedule.scheduleJob(rule, async () => { await sync(); });',
      ),
      errors: [unguarded({ line: 4, column: 28 })],
    },
    // toad-scheduler: a Task / AsyncTask handler used by an interval job and a cron job.
    {
      settings,
      code: lines(
        "import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';",
        'const scheduler = new ToadScheduler();',
        "const task = new AsyncTask('sync-prices', async () => { await syncPrices(); });",
        'scheduler.addSimpleIntervalJob(new SimpleIntervalJob({ minutes: 5 }, task));',
      ),
      errors: [
        unguarded(
          { line: 4, column: 32 },
          lines(
            "import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';",
            IMPORT,
            'const scheduler = new ToadScheduler();',
            `const task = new AsyncTask('sync-prices', async () => { ${guard('jobs-4', '300000')} await syncPrices(); });`,
            'scheduler.addSimpleIntervalJob(new SimpleIntervalJob({ minutes: 5 }, task));',
          ),
        ),
      ],
      filename: 'jobs.ts',
    },
    {
      settings,
      code: lines(
        "import { CronJob, Task } from 'toad-scheduler';",
        "scheduler.addCronJob(new CronJob({ cronExpression: '*/2 * * * *' }, new Task('t', function pollQueue() { api.poll(); })));",
      ),
      errors: [
        unguarded(
          { line: 2, column: 83 },
          lines(
            "import { CronJob, Task } from 'toad-scheduler';",
            IMPORT,
            `scheduler.addCronJob(new CronJob({ cronExpression: '*/2 * * * *' }, new Task('t', async function pollQueue() { ${guard('poll-queue', "{ cron: '*/2 * * * *' }")} api.poll(); })));`,
          ),
        ),
      ],
    },
    // @nestjs/schedule: report on the decorator, guard inside the method (made async).
    {
      settings,
      code: lines(
        "import { Cron } from '@nestjs/schedule';",
        'export class Billing {',
        "  @Cron('0 * * * *', { timeZone: 'Europe/London' })",
        '  closeInvoices() {',
        '    return this.invoiceService.closeDue();',
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 3, endLine: 3, endColumn: 52 },
          lines(
            "import { Cron } from '@nestjs/schedule';",
            IMPORT,
            'export class Billing {',
            "  @Cron('0 * * * *', { timeZone: 'Europe/London' })",
            '  async closeInvoices() {',
            `    ${guard('close-invoices', "{ cron: '0 * * * *', tz: 'Europe/London' }")}`,
            '    return this.invoiceService.closeDue();',
            '  }',
            '}',
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import { Interval } from '@nestjs/schedule';",
        'class Sync {',
        "  @Interval('sync', 10_000)",
        '  async handleInterval() {',
        '    await this.client.sync();',
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 3 },
          lines(
            "import { Interval } from '@nestjs/schedule';",
            IMPORT,
            'class Sync {',
            "  @Interval('sync', 10_000)",
            '  async handleInterval() {',
            `    ${guard('handle-interval', '10_000')}`,
            '    await this.client.sync();',
            '  }',
            '}',
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import * as nest from '@nestjs/schedule';",
        'class Warmup {',
        '  @nest.Timeout(5000)',
        '  async seed() {',
        '    await this.repository.seedDefaults();',
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 3 },
          lines(
            "import * as nest from '@nestjs/schedule';",
            IMPORT,
            'class Warmup {',
            '  @nest.Timeout(5000)',
            '  async seed() {',
            `    ${guard('seed', '5000')}`,
            '    await this.repository.seedDefaults();',
            '  }',
            '}',
          ),
        ),
      ],
    },
    {
      // A cron expression named by an enum member or a constant: `{ cron: CronExpression.EVERY_HOUR }` is valid as written.
      settings,
      code: lines(
        "import { Cron, CronExpression } from '@nestjs/schedule';",
        'class Reports {',
        '  @Cron(CronExpression.EVERY_HOUR)',
        '  async hourly() { await this.mailer.send(); }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 3 },
          lines(
            "import { Cron, CronExpression } from '@nestjs/schedule';",
            IMPORT,
            'class Reports {',
            '  @Cron(CronExpression.EVERY_HOUR)',
            `  async hourly() { ${guard('hourly', '{ cron: CronExpression.EVERY_HOUR }')} await this.mailer.send(); }`,
            '}',
          ),
        ),
      ],
    },
    // A lock word that names something else (`…ForLockDashboards`) is no lock taken.
    {
      settings,
      code: lines(
        "import { Cron, CronExpression } from '@nestjs/schedule';",
        'class Reports {',
        '  @Cron(CronExpression.EVERY_HOUR)',
        '  async hourly() { const users = await this.users.getUsersForLockDashboards(); await this.mailer.send(users); }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 3 },
          lines(
            "import { Cron, CronExpression } from '@nestjs/schedule';",
            IMPORT,
            'class Reports {',
            '  @Cron(CronExpression.EVERY_HOUR)',
            `  async hourly() { ${guard('hourly', '{ cron: CronExpression.EVERY_HOUR }')} const users = await this.users.getUsersForLockDashboards(); await this.mailer.send(users); }`,
            '}',
          ),
        ),
      ],
    },
    // SchedulerRegistry gives an inline job its name.
    {
      settings,
      code: lines(
        "import { SchedulerRegistry } from '@nestjs/schedule';",
        "import { CronJob } from 'cron';",
        'class Jobs {',
        '  constructor(private readonly registry: SchedulerRegistry) {}',
        '  register() {',
        "    const job = new CronJob('0 4 * * *', async () => { await this.backupService.run(); });",
        "    this.registry.addCronJob('nightly-backup', job);",
        '  }',
        '}',
      ),
      errors: [
        unguarded(
          { line: 6, column: 42 },
          lines(
            "import { SchedulerRegistry } from '@nestjs/schedule';",
            "import { CronJob } from 'cron';",
            IMPORT,
            'class Jobs {',
            '  constructor(private readonly registry: SchedulerRegistry) {}',
            '  register() {',
            `    const job = new CronJob('0 4 * * *', async () => { ${guard('nightly-backup', "{ cron: '0 4 * * *' }")} await this.backupService.run(); });`,
            "    this.registry.addCronJob('nightly-backup', job);",
            '  }',
            '}',
          ),
        ),
      ],
    },
    {
      options: [{ reportAll: true }],
      settings,
      code: lines(
        "import { SchedulerRegistry } from '@nestjs/schedule';",
        'function add(registry: SchedulerRegistry) {',
        "  registry.addInterval('heartbeat-push', setInterval(async () => { await api.ping(); }, 30_000));",
        '}',
      ),
      errors: [
        unguarded(
          { line: 3, column: 54 },
          lines(
            "import { SchedulerRegistry } from '@nestjs/schedule';",
            IMPORT,
            'function add(registry: SchedulerRegistry) {',
            `  registry.addInterval('heartbeat-push', setInterval(async () => { ${guard('heartbeat-push', '30_000')} await api.ping(); }, 30_000));`,
            '}',
          ),
        ),
      ],
    },
    // Work defined in another file: reported on the name, nothing to edit here.
    {
      options: [{ reportAll: true }],
      settings,
      code: lines("import { sweep } from './sweep';", 'setInterval(sweep, 60_000);'),
      errors: [unguarded({ line: 2, column: 13, endLine: 2, endColumn: 18 })],
    },
    // reportAll reports in-process work too.
    {
      settings,
      options: [{ reportAll: true }],
      code: lines('const cache = new Map();', 'setInterval(function clearCache() { cache.clear(); }, 1000);'),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            IMPORT,
            'const cache = new Map();',
            `setInterval(async function clearCache() { ${guard('clear-cache', '1000')} cache.clear(); }, 1000);`,
          ),
        ),
      ],
    },
    // Existing replica-guard imports: merged into, reused by alias, reused through a namespace.
    {
      settings,
      code: lines("import { runExclusive } from 'replica-guard';", 'setInterval(async function sync() { await api.sync(); }, 1000);'),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            "import { runExclusive, claimPeriod } from 'replica-guard';",
            `setInterval(async function sync() { ${guard('sync', '1000')} await api.sync(); }, 1000);`,
          ),
        ),
      ],
    },
    {
      settings,
      code: lines(
        "import { claimPeriod as claim } from 'replica-guard';",
        'setInterval(async function sync() { await api.sync(); }, 1000);',
      ),
      errors: [
        {
          ...unguarded(
            { line: 2, column: 13 },
            lines(
              "import { claimPeriod as claim } from 'replica-guard';",
              "setInterval(async function sync() { if (!(await claim('billing:sync', 1000))) return; await api.sync(); }, 1000);",
            ),
          ),
          data: { scheduler: 'setInterval', guard: 'claim', work: 'sync' },
        },
      ],
    },
    {
      settings,
      code: lines("import * as rg from 'replica-guard';", 'setInterval(async function sync() { await api.sync(); }, 1000);'),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            "import * as rg from 'replica-guard';",
            "setInterval(async function sync() { if (!(await rg.claimPeriod('billing:sync', 1000))) return; await api.sync(); }, 1000);",
          ),
        ),
      ],
    },
    // A guard that is not first leaves the work before it unguarded.
    {
      settings,
      code: lines(
        IMPORT,
        'setInterval(async function sync() {',
        '  await api.sync();',
        "  if (!(await claimPeriod('billing:sync', 1000))) return;",
        '}, 1000);',
      ),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            IMPORT,
            'setInterval(async function sync() {',
            `  ${guard('sync', '1000')}`,
            '  await api.sync();',
            "  if (!(await claimPeriod('billing:sync', 1000))) return;",
            '}, 1000);',
          ),
        ),
      ],
    },
    // A queue enqueue without a dedupe id repeats per replica.
    {
      settings,
      code: lines(
        "import { Queue } from 'bullmq';",
        "const queue = new Queue('reports');",
        "setInterval(async function enqueueDaily() { await queue.add('daily', {}); }, 60_000);",
      ),
      errors: [
        unguarded(
          { line: 3, column: 13 },
          lines(
            "import { Queue } from 'bullmq';",
            IMPORT,
            "const queue = new Queue('reports');",
            `setInterval(async function enqueueDaily() { ${guard('enqueue-daily', '60_000')} await queue.add('daily', {}); }, 60_000);`,
          ),
        ),
      ],
    },
    // Service from settings is used verbatim in the key.
    {
      options: [{ reportAll: true }],
      settings: { 'replica-guard': { service: 'payments-api' } },
      code: 'setInterval(async function settle() { await ledger.settle(); }, 1000);',
      errors: [
        unguarded(
          { line: 1, column: 13 },
          lines(
            IMPORT,
            "setInterval(async function settle() { if (!(await claimPeriod('payments-api:settle', 1000))) return; await ledger.settle(); }, 1000);",
          ),
        ),
      ],
    },
    // `typeof document` alone (a server bundle's shim) does not make a file browser code.
    {
      options: [{ reportAll: true }],
      settings,
      code: lines(
        "const hasDom = typeof document !== 'undefined';",
        'setInterval(async function settle() { await ledger.settle(); }, 1000);',
      ),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            IMPORT,
            "const hasDom = typeof document !== 'undefined';",
            `setInterval(async function settle() { ${guard('settle', '1000')} await ledger.settle(); }, 1000);`,
          ),
        ),
      ],
    },
    // Two schedulers over one function report it once.
    {
      settings,
      code: lines('async function sync() { await api.sync(); }', 'setInterval(sync, 1000);', 'setInterval(sync, 2000);'),
      errors: [
        unguarded(
          { line: 2, column: 13 },
          lines(
            IMPORT,
            `async function sync() { ${guard('sync', '1000')} await api.sync(); }`,
            'setInterval(sync, 1000);',
            'setInterval(sync, 2000);',
          ),
        ),
      ],
    },
  ],
});
