// no-unguarded-schedule on timers whose lifetime or work is not the replica's: a timer owned by
// one connection, request or call (cleared when that owner ends, or filed under the call's key),
// a flush of the instance's own buffer, the upkeep of a lock the process holds, a claim that
// hands each row or item to one replica (SKIP LOCKED, an atomic Redis script); and endless poll
// loops (`while (true) { …; await delay(ms); }`), which schedule their body like a timer.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'feeds' } };
/** A websocket server whose connection handler starts a stats timer; `clear` is how the timer ends. */
const perSocket = (...clear: string[]): string =>
  lines(
    'export function attach(wss) {',
    "  wss.on('connection', (ws) => {",
    '    const timer = setInterval(async () => {',
    '      const stats = await docker.stats(ws.containerId);',
    '      await db.insertSample(stats);',
    '      ws.send(JSON.stringify(stats));',
    '    }, 2000);',
    ...clear,
    '  });',
    '}',
  );
/** A class that collects events in `this.pending` and writes them out from a timer through `#writeOut`. */
const eventBuffer = (drain: string): string =>
  lines(
    'class EventBuffer {',
    '  pending = [];',
    '  add(event) {',
    '    this.pending.push(event);',
    '  }',
    '  start() {',
    '    this.timer = setInterval(() => this.persistPending().catch(() => {}), 5000);',
    '  }',
    '  async persistPending() {',
    '    await this.#writeOut();',
    '  }',
    '  async #writeOut() {',
    `    const batch = ${drain};`,
    '    if (batch.length > 0) await this.db.insertEvents(batch);',
    '  }',
    '}',
  );
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const guard = (job: string, period: string) => `if (!(await claimPeriod('feeds:${job}', ${period}))) return;`;
/** The one suggestion: the import, then `guard` inserted as line `at` (0-based) of `code`, indented by `indent`. */
const suggestion = (code: string, at: number, indent: string, job: string, period: string) => {
  const out = code.split('\n');
  out.splice(at, 0, `${indent}${guard(job, period)}`);
  return [{ messageId: 'addClaimPeriod' as const, output: lines(IMPORT, ...out) }];
};
const MODULE_TIMER = lines(
  'const timer = setInterval(async () => {',
  '  await db.deleteExpiredSessions();',
  '}, 60_000);',
  "server.on('close', () => clearInterval(timer));",
);
const MAIN_LOOP = lines(
  'export async function main() {',
  '  const sweep = setInterval(async () => {',
  '    await db.deleteExpiredSessions();',
  '  }, 60_000);',
  '  try {',
  '    await server.listen();',
  '  } finally {',
  '    clearInterval(sweep);',
  '  }',
  '}',
);
const ON_SHUTDOWN = perSocket("    process.on('SIGTERM', () => clearInterval(timer));");
const FROM_DATABASE = eventBuffer('await this.db.findUnsentEvents()');
const NOT_A_LOCK = lines('setInterval(async () => {', '  await this.trials.extend(30);', '  await this.db.updateTrials();', '}, 10_000);');
const NO_CLAIM = lines(
  'setInterval(async () => {',
  "  const { rows } = await pool.query('SELECT * FROM events WHERE state = $1 LIMIT 10', ['pending']);",
  '  for (const row of rows) await webhooks.sendEvent(row);',
  '}, 5000);',
);
/** A follower that records each start, starts `owner` and reschedules itself from its `event` listener. */
const restarting = (owner: string, event: string) =>
  lines(
    'let feed;',
    'async function follow() {',
    '  await db.insertFeedStart(Date.now());',
    `  feed = ${owner};`,
    `  feed.on('${event}', () => setTimeout(follow, 5_000));`,
    '}',
    'follow();',
  );
/** The same loop when the owner is handed to a callback of what the work calls (`(err, conn) => …`, `.then((conn) => …)`). */
const restartingInCallback = (call: string, param: string, event: string) =>
  lines(
    'async function follow() {',
    '  await db.insertFeedStart(Date.now());',
    `  ${call}${param} => {`,
    `    conn.on('${event}', () => setTimeout(follow, 5_000));`,
    '  });',
    '}',
    'follow();',
  );
const restartingInCallbackReported = (call: string, param: string, event: string) => ({
  settings,
  code: restartingInCallback(call, param, event),
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line: 4,
      column: restartingInCallback(call, param, event).split('\n')[3]!.indexOf('follow,') + 1,
      suggestions: [],
    },
  ],
});
/** `restarting(…)` reported at the reschedule's work, with no suggestion (the reschedule sits in a listener). */
const restartingReported = (owner: string, event: string) => ({
  settings,
  code: restarting(owner, event),
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line: 5,
      column: restarting(owner, event).split('\n')[4]!.indexOf('follow,') + 1,
      suggestions: [],
    },
  ],
});
/** An invalid case: one report at `line`:`column`, whose suggestion inserts the guard as line `at`. */
const reported = (code: string, line: number, column: number, at: number, indent: string, job: string, period: string) => ({
  settings,
  code,
  errors: [{ messageId: 'unguardedSchedule' as const, line, column, suggestions: suggestion(code, at, indent, job, period) }],
});
const GAUGED_PURGE = lines(
  'setInterval(async () => {',
  '  const removed = await purgeExpiredTokens();',
  "  console.log('purged', removed);",
  '}, 60_000);',
  'async function purgeExpiredTokens() {',
  "  Stats.gauge('tokens.purge', 1);",
  '  return db.deleteExpiredTokens();',
  '}',
);
const LOCAL_MAP = lines(
  'class Sync {',
  '  start() {',
  '    this.timer = setInterval(() => this.syncDirty().catch(() => {}), 5000);',
  '  }',
  '  async syncDirty() {',
  '    const seen = new Map();',
  '    for (const row of await this.db.findDirty()) seen.set(row.id, row);',
  '    for (const [id, row] of seen) await this.db.updateRow(id, row);',
  '  }',
  '}',
);
const POLL_ERROR = { messageId: 'unguardedSchedule' as const, suggestions: [] };
/** An endless poll loop reported at its head (`line`, `column`), with no suggestion. */
const pollLoopReported = (line: number, column: number, ...code: string[]) => ({
  settings,
  code: lines(...code),
  errors: [{ ...POLL_ERROR, line, column }],
});

ruleTester.run('no-unguarded-schedule (lifetime and claims)', noUnguardedSchedule, {
  valid: [
    // 1. Per connection: started in the connection handler, cleared when the socket closes.
    { settings, code: perSocket("    ws.on('close', () => clearInterval(timer));") },
    { settings, code: perSocket("    ws.addEventListener('error', () => { clearInterval(timer); });") },
    // Per call: an idle check cleared in the `finally` of the call that started it, through a local stop().
    {
      settings,
      code: lines(
        'export async function invoke(job, run) {',
        '  let idleCheck = null;',
        '  const stopIdleCheck = () => {',
        '    if (idleCheck) clearInterval(idleCheck);',
        '  };',
        '  try {',
        '    idleCheck = setInterval(async () => {',
        '      if (Date.now() - job.lastOutputAt > 60_000) await actions.updateStatus(job.id, "timed-out");',
        '    }, 5000);',
        '    return await run(job);',
        '  } finally {',
        '    stopIdleCheck();',
        '  }',
        '}',
      ),
    },
    // Per call: a poller filed under the call's id (stop(callId) clears it).
    {
      settings,
      code: lines(
        'class CallPollers {',
        '  pollers = new Map();',
        '  start(callId) {',
        '    const interval = setInterval(async () => {',
        '      const calls = await this.calls.findFinished(callId);',
        '      for (const call of calls) await this.events.sendEvent(call);',
        '    }, 1500);',
        '    this.pollers.set(callId, { interval });',
        '  }',
        '  stop(callId) {',
        '    clearInterval(this.pollers.get(callId)?.interval);',
        '  }',
        '}',
      ),
    },
    // A poller that stops itself once its one caller is served.
    {
      settings,
      code: lines(
        'export function waitForExport(exportId, notify) {',
        '  const poll = setInterval(async () => {',
        '    const row = await exports.findById(exportId);',
        '    if (row.done) {',
        '      clearInterval(poll);',
        '      await notify.sendEmail(row.owner);',
        '    }',
        '  }, 1000);',
        '}',
      ),
    },
    // 2. The instance's own buffer, drained two methods away.
    { settings, code: eventBuffer('this.pending.splice(0)') },
    { settings, code: eventBuffer('this.pending.filter((e) => !e.saved)') },
    // 3. The upkeep of a lock this process holds: the guard itself.
    {
      settings,
      code: lines(
        'class Locker {',
        '  async #extendLock(ctx) {',
        '    const lock = await ctx.lock.extend(30_000);',
        '    if (lock) {',
        '      ctx.lock = lock;',
        '      await this.store.updateExpiry(ctx.key, lock.expiration);',
        '      return;',
        '    }',
        '    ctx.timeout = setTimeout(() => {',
        '      ctx.extension = this.#extendLock(ctx);',
        '    }, 100);',
        '  }',
        '}',
      ),
    },
    {
      settings,
      code: lines('setInterval(async () => {', '  await this.lease.renew();', '  await this.db.updateLeaseSeen(this.id);', '}, 10_000);'),
    },
    // 5. A claim: FOR UPDATE SKIP LOCKED hands each row to one replica; so does an atomic Redis pop script.
    {
      settings,
      code: lines(
        'const CLAIM = `UPDATE events SET state = $1 WHERE id IN (SELECT id FROM events WHERE state = $2 LIMIT 10 FOR UPDATE SKIP LOCKED) RETURNING *`;',
        'setInterval(async () => {',
        "  const { rows } = await pool.query(CLAIM, ['processing', 'pending']);",
        '  for (const row of rows) await webhooks.sendEvent(row);',
        '}, 5000);',
      ),
    },
    // A same-file function named for a write is still read: its claim coordinates the timer.
    {
      settings,
      code: lines(
        'setInterval(async () => {',
        '  const expired = await expireDueRuns();',
        "  console.log('expired', expired);",
        '}, 1000);',
        'async function expireDueRuns() {',
        '  const { rows } = await pool.query(',
        "    `UPDATE runs SET state = 'expired' WHERE id IN (SELECT id FROM runs WHERE due_at < now() LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING id`,",
        '  );',
        '  return rows.length;',
        '}',
      ),
    },
    {
      settings,
      code: lines(
        'class DueQueue {',
        '  constructor(redis) {',
        '    this.redis = redis;',
        "    this.redis.defineCommand('takeDue', {",
        '      numberOfKeys: 1,',
        "      lua: `local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1]) for _, id in ipairs(ids) do redis.call('ZREM', KEYS[1], id) end return ids`,",
        '    });',
        '  }',
        '  start() {',
        '    setInterval(async () => {',
        "      const ids = await this.redis.takeDue('due', Date.now());",
        '      for (const id of ids) await this.db.expireRun(id);',
        '    }, 1000);',
        '  }',
        '}',
      ),
    },
    // 6. Not a poll loop: a paged read that ends (`break`), a loop over memory only, a wait for one answer.
    {
      settings,
      code: lines(
        "import { setTimeout as sleep } from 'node:timers/promises';",
        'export async function backfill() {',
        '  while (true) {',
        '    const page = await source.nextPage();',
        '    if (!page) break;',
        '    await db.insertRows(page);',
        '    await sleep(100);',
        '  }',
        '}',
      ),
    },
    {
      settings,
      code: lines(
        "import { setTimeout } from 'node:timers/promises';",
        'export async function trimCache() {',
        '  for (;;) {',
        '    cache.clear();',
        '    await setTimeout(60_000);',
        '  }',
        '}',
      ),
    },
    // A drain that ends: its idle pause (kept in a `const`, awaited in the branch) is a back-off, but the loop `break`s.
    {
      settings,
      code: lines(
        'export async function drainOutbox() {',
        '  while (true) {',
        '    const sent = await outbox.sendNextBatch();',
        '    if (sent === 0) {',
        '      const idle = new Promise((resolve) => setTimeout(resolve, 5_000));',
        '      await idle;',
        '    }',
        '    if (outbox.closed) break;',
        '  }',
        '}',
      ),
    },
    // A respawn or reconnect: rescheduled only when the child process or connection the work started ends.
    { settings, code: restarting("fork('./mailer.js')", 'exit') },
    { settings, code: restarting('new WebSocket(FEED_URL)', 'close') },
    // The connection is the parameter of the connect's callback, or of its promise's `then`.
    { settings, code: restartingInCallback('amqp.connect(AMQP_URL, ', '(err, conn)', 'close') },
    { settings, code: restartingInCallback('amqp.connect(AMQP_URL).then(', '(conn)', 'close') },
    // A durable workflow's loop: Temporal runs one execution per workflow id, its `sleep` is a durable timer.
    {
      settings,
      code: lines(
        "import { proxyActivities, sleep } from '@temporalio/workflow';",
        'const { sendDueDigests } = proxyActivities({ startToCloseTimeout: 60_000 });',
        'export async function digestScheduler() {',
        '  while (true) {',
        '    await sendDueDigests();',
        '    await sleep(60_000);',
        '  }',
        '}',
      ),
    },
    // Guarded: the body begins with a claim that waits before it tries again.
    {
      settings,
      code: lines(
        "import { claimPeriod } from 'replica-guard';",
        "import { setTimeout as sleep } from 'node:timers/promises';",
        'export async function pollFeeds() {',
        '  while (true) {',
        "    if (await claimPeriod('feeds:poll-feeds', 60_000)) await db.insertItems(await fetchFeeds());",
        '    await sleep(60_000);',
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    // 1. A module-level timer cleared when the server closes is the process's, not one connection's.
    reported(MODULE_TIMER, 1, 27, 1, '  ', 'timer', '60_000'),
    // Cleared on shutdown only: every replica runs it until then.
    reported(ON_SHUTDOWN, 3, 31, 3, '      ', 'timer', '2000'),
    // Cleared in the `finally` of a main() that runs as long as the process.
    reported(MAIN_LOOP, 2, 29, 2, '    ', 'sweep', '60_000'),
    // 2. A drain of rows read from the database is not the instance's own buffer.
    {
      settings,
      code: FROM_DATABASE,
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 30,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: FROM_DATABASE.replace(
                '    this.timer = setInterval(() => this.persistPending().catch(() => {}), 5000);',
                lines(
                  '    this.timer = setInterval(async () => {',
                  `      ${guard('file-7', '5000')}`,
                  '      return this.persistPending().catch(() => {});',
                  '    }, 5000);',
                ),
              ).replace(/^/, `${IMPORT}\n`),
            },
          ],
        },
      ],
    },
    // A Map a called method builds from a query is not the instance's own state.
    {
      settings,
      code: LOCAL_MAP,
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 30,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                IMPORT,
                ...LOCAL_MAP.split('\n').slice(0, 2),
                '    this.timer = setInterval(async () => {',
                `      ${guard('file-3', '5000')}`,
                '      return this.syncDirty().catch(() => {});',
                '    }, 5000);',
                ...LOCAL_MAP.split('\n').slice(3),
              ),
            },
          ],
        },
      ],
    },
    // 3. `extend` on something that is not a lock is work.
    reported(NOT_A_LOCK, 1, 13, 1, '  ', 'file-1', '10_000'),
    // 5. Without SKIP LOCKED every replica selects the same rows.
    reported(NO_CLAIM, 1, 13, 1, '  ', 'file-1', '5000'),
    // A gauge inside a function named for a write does not make the write per-replica.
    reported(GAUGED_PURGE, 1, 13, 1, '  ', 'file-1', '60_000'),
    // 6. Endless poll loops: reported at the loop's head, no suggestion (the codemod lists them as manual).
    {
      settings,
      code: lines(
        "import { setTimeout as sleep } from 'node:timers/promises';",
        'export async function pollFeeds() {',
        '  while (true) {',
        '    const items = await fetchFeeds();',
        '    await db.insertItems(items);',
        '    await sleep(60_000);',
        '  }',
        '}',
      ),
      errors: [{ ...POLL_ERROR, line: 3, column: 3, endLine: 3, endColumn: 16 }],
    },
    pollLoopReported(
      2,
      3,
      'export async function sendReminders() {',
      '  for (;;) {',
      '    try {',
      '      await mailer.sendReminders(await db.dueReminders());',
      '    } finally {',
      '      await new Promise((resolve) => setTimeout(resolve, 30_000));',
      '    }',
      '  }',
      '}',
    ),
    pollLoopReported(
      3,
      5,
      'class Worker {',
      '  async run() {',
      '    while (!this.stopped) {',
      "      await this.db.query('UPDATE accounts SET overdue = true WHERE due_at < now()');",
      '      await this.sleep(10_000);',
      '    }',
      '  }',
      '  sleep(ms) {',
      '    return new Promise((resolve) => setTimeout(resolve, ms));',
      '  }',
      '}',
    ),
    // A response's end is every round of an HTTP poll; a child's messages are not its end.
    restartingReported('https.get(FEED_URL)', 'close'),
    restartingReported("fork('./mailer.js')", 'message'),
    // Handed to a callback: a response's end (an HTTP poll), a connection's messages, a query's rows.
    restartingInCallbackReported('https.get(FEED_URL, ', '(conn)', 'close'),
    restartingInCallbackReported('amqp.connect(AMQP_URL, ', '(err, conn)', 'message'),
    restartingInCallbackReported('db.stream(FEED_SQL).then(', '(conn)', 'end'),
    // The pause kept in a `const` and awaited at the end of the round.
    pollLoopReported(
      2,
      3,
      'async function purgeUnsubscribed() {',
      '  while (true) {',
      "    await db.query('DELETE FROM subscribers WHERE unsubscribed_at < now() - interval \\'30 days\\'');",
      '    const nextRound = new Promise((resolve) => {',
      '      setTimeout(resolve, 60_000);',
      '    });',
      '    await nextRound;',
      '  }',
      '}',
    ),
    // An idle back-off: the loop pauses only when a round found nothing to do.
    pollLoopReported(
      2,
      3,
      'async function fireReminders() {',
      '  for (;;) {',
      '    const due = await db.reminders.findDue();',
      '    for (const reminder of due) await mailer.sendReminder(reminder);',
      '    if (due.length === 0) {',
      '      const idle = new Promise((resolve) => setTimeout(resolve, 30_000));',
      '      await idle;',
      '    }',
      '  }',
      '}',
    ),
    pollLoopReported(
      3,
      3,
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'export async function syncInvoices() {',
      '  while (!stopped) {',
      '    const changed = await billing.sendPendingInvoices();',
      '    if (!changed) await sleep(10_000);',
      '  }',
      '}',
    ),
    // The pause imported from the project: the file names no timer and no scheduler at all.
    pollLoopReported(
      3,
      3,
      "import { delay } from '../lib/time';",
      'export async function sendDigests() {',
      '  for (;;) {',
      '    await mailer.sendDigests(await db.pendingDigests());',
      '    await delay(15_000);',
      '  }',
      '}',
    ),
  ],
});
