// no-unguarded-schedule on work that belongs to this process though it reaches outside it, and on
// poll loops that hand shared rows on:
// - a timer that registers this process's workers (pg-boss `boss.work(queue, handler)`, BullMQ
//   `new Worker(name, processor)`): the handler runs per job delivered, not per tick. Its twin runs
//   the same write in the tick itself;
// - a sample of this process sent or stored (`process.memoryUsage()`, v8's `writeHeapSnapshot()`):
//   per replica by design. A measurement only logged beside a shared delete is not;
// - a `for await` timer loop goes by the function that runs it (`#startReportingHeartbeat`);
// - a write named for this host (`saveLocalCache`);
// - a poll loop reading rows from a shared store and handing each row to another module's
//   function (`await handleFeed(feed)`): a declared job. Its twins fill a cache, call a function
//   named for this instance, read through an unknown function, or block on a queue read;
// - a request's timer whose handle is a `const` of a block in the handler, cleared when the request
//   closes, is the request's (its twin is never cleared);
// - a poll loop's pause by another name (`await snooze(POLL_INTERVAL_MS)`), given a duration; a
//   blocking read with a timeout (`waitForMessage(5_000)`) is no pause.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
const POLL_ERROR = { messageId: 'unguardedSchedule' as const, suggestions: [] };
/** An endless poll loop reported at its head (`line`, `column`), with no suggestion. */
const pollLoopReported = (line: number, code: string) => ({ settings, code, errors: [{ ...POLL_ERROR, line, column: 3 }] });

/** A poll loop over feeds (imports Prisma, a `delay` and `handleFeed`), its round being `statements`. */
const feedPolling = (...statements: string[]) =>
  lines(
    "import { prisma } from '@acme/prisma';",
    "import { delay } from '@acme/lib/utils';",
    "import { handleFeed } from '@acme/lib/feeds';",
    'export async function startFeedPolling() {',
    '  while (true) {',
    ...statements,
    '    await delay(60_000);',
    '  }',
    '}',
  );

/** A request handler whose session timer lives in a block, `clear` after the timer. */
const watchSession = (...clear: string[]) =>
  lines(
    "import { db } from './db';",
    'export function watchSession(req, res) {',
    '  if (req.sessionId) {',
    '    const timer = setInterval(async () => {',
    "      await db.query('UPDATE sessions SET seen_at = now() WHERE id = $1', [req.sessionId]);",
    '    }, 30_000);',
    ...clear,
    '    return;',
    '  }',
    '  res.end();',
    '}',
  );

ruleTester.run('no-unguarded-schedule (this process’s own work, poll loops over shared rows)', noUnguardedSchedule, {
  valid: [
    // a timer registering pg-boss workers for the queues found since its last tick
    {
      settings,
      code: lines(
        "import { boss, db, logger } from './deps';",
        'const registered = new Set<string>();',
        'async function registerNewQueues() {',
        '  for (const queue of await boss.getQueues()) {',
        '    if (registered.has(queue.name)) continue;',
        '    await boss.work(queue.name, async (job) => {',
        "      await db.runs.update({ where: { id: job.data.id }, data: { status: 'done' } });",
        '    });',
        '    registered.add(queue.name);',
        '    logger.info(`worker for ${queue.name}`);',
        '  }',
        '}',
        'setInterval(registerNewQueues, 10_000);',
      ),
    },
    // BullMQ workers built in the tick
    {
      settings,
      code: lines(
        "import { Worker } from 'bullmq';",
        "import { pendingQueues, sendInvoice } from './deps';",
        'const workers: Worker[] = [];',
        'setInterval(() => {',
        '  for (const name of pendingQueues()) workers.push(new Worker(name, async (job) => { await sendInvoice(job.data); }));',
        '}, 5_000);',
      ),
    },
    // this process’s memory and CPU sent out
    {
      settings,
      code: lines(
        "import { api } from './deps';",
        'setInterval(async () => {',
        '  await api.sendUsage({ rss: process.memoryUsage().rss, cpu: process.cpuUsage().user });',
        '}, 60_000);',
      ),
    },
    // a heap snapshot of this process uploaded
    {
      settings,
      code: lines(
        "import { writeHeapSnapshot } from 'node:v8';",
        "import fs from 'node:fs';",
        "import { s3, PutObjectCommand } from './deps';",
        'setInterval(async () => {',
        '  const file = writeHeapSnapshot();',
        "  await s3.send(new PutObjectCommand({ Bucket: 'profiles', Key: file, Body: fs.readFileSync(file) }));",
        '}, 900_000);',
      ),
    },
    // a `for await` loop in a method named for a heartbeat
    {
      settings,
      code: lines(
        "import { setInterval } from 'node:timers/promises';",
        'export class UsageReporter {',
        '  constructor(private client: { sendUsageEvent(e: object): Promise<void> }, private sample: () => number) {}',
        '  async #startReportingHeartbeat() {',
        '    for await (const _ of setInterval(30_000)) {',
        '      await this.client.sendUsageEvent({ durationMs: this.sample() });',
        '    }',
        '  }',
        '}',
      ),
    },
    // a write named for this host
    {
      settings,
      code: lines(
        "import fs from 'node:fs';",
        "import path from 'node:path';",
        "import { definition } from './deps';",
        'function saveLocalCache(store: unknown) {',
        '  fs.mkdirSync(definition.localDir, { recursive: true });',
        "  fs.writeFileSync(path.join(definition.localDir, 'store.json'), JSON.stringify(store));",
        '}',
        'setInterval(async () => {',
        '  const store = await definition.refresh();',
        '  saveLocalCache(store);',
        '}, 60_000);',
      ),
    },
    // the rows fill this process’s cache
    {
      settings,
      code: feedPolling(
        '    const feeds = await prisma.feedSubscription.findMany({ where: { active: true } });',
        '    for (const feed of feeds) feedCache.set(feed.id, feed);',
      ),
    },
    // each row handed to a function named for this instance
    {
      settings,
      code: lines(
        "import { prisma } from '@acme/prisma';",
        "import { delay } from '@acme/lib/utils';",
        "import { refreshLocalCache } from '@acme/lib/feeds';",
        'export async function startFeedPolling() {',
        '  while (true) {',
        '    const feeds = await prisma.feedSubscription.findMany({ where: { active: true } });',
        '    for (const feed of feeds) await refreshLocalCache(feed);',
        '    await delay(60_000);',
        '  }',
        '}',
      ),
    },
    // rows read through a function of unknown kind
    {
      settings,
      code: feedPolling('    const feeds = await loadFeeds();', '    for (const feed of feeds) await handleFeed(feed);'),
    },
    // a consumer blocking on a queue read: no pause, no schedule
    {
      settings,
      code: lines(
        "import { queue } from '@acme/queue';",
        "import { handleFeed } from '@acme/lib/feeds';",
        'export async function startConsumer() {',
        '  while (true) {',
        '    const messages = await queue.receive({ waitSeconds: 20 });',
        '    for (const message of messages) await handleFeed(message);',
        '  }',
        '}',
      ),
    },
    // a blocking read with a timeout is no pause
    {
      settings,
      code: lines(
        "import { db, consumer } from './db';",
        'export async function consumeLoop() {',
        '  while (true) {',
        '    const message = await consumer.waitForMessage(5_000);',
        "    await db.query('DELETE FROM sessions WHERE id = $1', [message.id]);",
        '  }',
        '}',
      ),
    },
    // a pause-like name given no duration
    {
      settings,
      code: lines(
        "import { db } from './db';",
        "import { snooze } from './utils';",
        'export async function expireLoop() {',
        '  while (true) {',
        "    await db.query('DELETE FROM sessions WHERE expires_at < now()');",
        '    await snooze(queueName);',
        '  }',
        '}',
      ),
    },
    // a request's timer kept in a block of its handler, cleared when the request closes
    {
      settings,
      code: watchSession("    req.on('close', () => clearInterval(timer));"),
    },
  ],
  invalid: [
    // the same timer never cleared
    guardedReport(settings, watchSession(), {
      line: 4,
      column: 31,
      guard: "      if (!(await claimPeriod('billing:timer', 30_000))) return;",
      after: 4,
      importAfter: 1,
    }),
    // the tick writes the runs itself
    guardedReport(
      settings,
      lines(
        "import { boss, db } from './deps';",
        'async function finishRuns() {',
        '  for (const queue of await boss.getQueues()) {',
        "    await db.runs.update({ where: { queue: queue.name }, data: { status: 'done' } });",
        '  }',
        '}',
        'setInterval(finishRuns, 10_000);',
      ),
      { line: 7, column: 13, guard: "  if (!(await claimPeriod('billing:finish-runs', 10_000))) return;", after: 2, importAfter: 1 },
    ),
    // memory only logged beside a shared delete
    guardedReport(
      settings,
      lines(
        "import { api, db, logger } from './deps';",
        'setInterval(async () => {',
        "  logger.info('memory', process.memoryUsage());",
        "  await db.query('DELETE FROM sessions WHERE expires_at < now()');",
        '}, 60_000);',
      ),
      { line: 2, column: 13, guard: "  if (!(await claimPeriod('billing:file-2', 60_000))) return;", after: 2, importAfter: 1 },
    ),
    // the same loop in a method named for invoices
    guardedReport(
      settings,
      lines(
        "import { setInterval } from 'node:timers/promises';",
        'export class UsageReporter {',
        '  constructor(private client: { sendUsageEvent(e: object): Promise<void> }, private sample: () => number) {}',
        '  async #startReportingInvoices() {',
        '    for await (const _ of setInterval(30_000)) {',
        '      await this.client.sendUsageEvent({ durationMs: this.sample() });',
        '    }',
        '  }',
        '}',
      ),
      {
        line: 5,
        column: 27,
        guard: "      if (!(await claimPeriod('billing:start-reporting-invoices', 30_000))) continue;",
        after: 5,
        importAfter: 1,
      },
    ),
    // a write named for a shared copy
    guardedReport(
      settings,
      lines(
        "import fs from 'node:fs';",
        "import path from 'node:path';",
        "import { definition } from './deps';",
        'function saveSharedCopy(store: unknown) {',
        '  fs.mkdirSync(definition.localDir, { recursive: true });',
        "  fs.writeFileSync(path.join(definition.localDir, 'store.json'), JSON.stringify(store));",
        '}',
        'setInterval(async () => {',
        '  const store = await definition.refresh();',
        '  saveSharedCopy(store);',
        '}, 60_000);',
      ),
      { line: 8, column: 13, guard: "  if (!(await claimPeriod('billing:file-8', 60_000))) return;", after: 8, importAfter: 3 },
    ),
    // each row read from Prisma handed to another module
    pollLoopReported(
      5,
      feedPolling(
        '    const feeds = await prisma.feedSubscription.findMany({ where: { active: true } });',
        '    await Promise.allSettled(feeds.map(async (feed) => { await handleFeed(feed); }));',
      ),
    ),
    // the same with `for…of`
    pollLoopReported(
      5,
      feedPolling(
        '    const feeds = await prisma.feedSubscription.findMany({ where: { active: true } });',
        '    for (const feed of feeds) await handleFeed(feed);',
      ),
    ),
    // the read inline in the `for…of`
    pollLoopReported(5, feedPolling('    for (const feed of await prisma.feedSubscription.findMany()) await handleFeed(feed);')),
    // a pause by another name, given a duration
    pollLoopReported(
      4,
      lines(
        "import { db } from './db';",
        "import { snooze } from './utils';",
        'export async function expireLoop() {',
        '  while (true) {',
        "    await db.query('DELETE FROM sessions WHERE expires_at < now()');",
        '    await snooze(POLL_INTERVAL_MS);',
        '  }',
        '}',
      ),
    ),
  ],
});
