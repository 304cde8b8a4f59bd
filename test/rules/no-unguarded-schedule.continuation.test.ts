// no-unguarded-schedule on timers that continue ONE run of a task rather than start a period: a
// retry set in an error callback or an `'error'` listener, a retry bounded by an attempt counter,
// the next page of one request that ends by calling the request back, a pacing step of a run
// holding a lock, a lock keep-alive filed under the task's key. Also a lease gate after a log
// line or inside a `try`, and a log tag that starts like SQL (`'update-checker'`). Each twin — a
// loop started at boot that never ends, a gate after real work, a real UPDATE — is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const settings = { 'replica-guard': { service: 'mail' } };
/** An invalid case reported at `line`/`column`, without checking a suggestion's text (none is expected where `suggestions` is `[]`). */
const reported = (code: string, line: number, column: number, suggestions?: []) => ({
  settings,
  code,
  errors: [{ messageId: 'unguardedSchedule' as const, line, column, ...(suggestions ? { suggestions } : {}) }],
});

/** A blob stored with retries from the error branch of a Node callback. */
const ERROR_CALLBACK_RETRY = lines(
  'export function storeBlob(bucket, id, body) {',
  '  const tryStore = () => {',
  '    bucket.insertOne({ _id: id, body }, (err) => {',
  '      if (err) {',
  '        return setTimeout(tryStore, 200);',
  '      }',
  "      console.info('stored', id);",
  '    });',
  '  };',
  '  tryStore();',
  '}',
);
/** The same insert retried from an `'error'` listener of the upload stream. */
const ERROR_LISTENER_RETRY = lines(
  'export function upload(files, id, body) {',
  '  const tryUpload = () => {',
  '    const stream = files.openUploadStream(id);',
  "    stream.once('error', () => setTimeout(tryUpload, 100));",
  '    files.insertOne({ _id: id, size: body.length });',
  '  };',
  '  tryUpload();',
  '}',
);
/** A publish retried while a counter stays under its bound. */
const COUNTED_RETRY = lines(
  'export function publishSnapshot(bus, snapshot) {',
  '  let tries = 0;',
  '  const send = async () => {',
  "    const ok = await bus.publish('snapshots', snapshot);",
  '    if (!ok && tries++ < 5) setTimeout(send, 1000);',
  '  };',
  '  send();',
  '}',
);
/** A lookup retried until the row appears, while a counter stays under the bound named after it. */
const retryUntilFound = (bound: string) =>
  lines(
    'export function saveCover(db, address, url) {',
    '  let count = 0;',
    '  const maxCount = 12;',
    '  const save = async () => {',
    '    const row = await db.collections.findOne({ where: { address } });',
    `    if (!row && ${bound}) {`,
    '      count++;',
    '      return setTimeout(save, 10_000);',
    '    }',
    '    await db.collections.update({ cover: url }, { where: { address } });',
    '  };',
    '  save();',
    '}',
  );
/** A join retried by a timer that leaves first once the attempts are used up. */
const ATTEMPTS_FIRST = lines(
  'export class ChannelJoiner {',
  '  join(channel: string, attempt = 0) {',
  '    const timer = setTimeout(async () => {',
  '      if (attempt >= 5) {',
  "        this.events.emit('join-failed', channel);",
  '        return;',
  '      }',
  '      await this.store.saveChannel(channel);',
  '      this.join(channel, attempt + 1);',
  '    }, 10_000);',
  '    this.client.join(channel, () => clearTimeout(timer));',
  '  }',
  '}',
);
/** One FETCH request paged through: the next page by timer, the request called back after the last (`reply`). */
const paging = (reply: string) =>
  lines(
    'export const onFetch = (db) => function (mailbox, options, callback) {',
    '  let lastUid = 0;',
    '  const done = (...args) => callback(...args);',
    '  const processPage = () => {',
    "    db.collection('messages').find({ mailbox, uid: { $gt: lastUid } }).limit(100).toArray((err, rows) => {",
    '      if (err) return callback(err);',
    "      for (const row of rows) db.collection('messages').updateOne({ _id: row._id }, { $addToSet: { flags: '\\\\Seen' } });",
    '      if (rows.length === 100) {',
    '        lastUid = rows[rows.length - 1].uid;',
    '        return setTimeout(processPage, 10);',
    '      }',
    `      ${reply}`,
    '    });',
    '  };',
    '  processPage();',
    '};',
  );
/** The same pages read by a loop started at boot: it never ends, every replica runs it. */
const BOOT_PAGING = lines(
  'let lastUid = 0;',
  'function processPage() {',
  "  db.collection('messages').find({ uid: { $gt: lastUid } }).limit(100).toArray((err, rows) => {",
  "    for (const row of rows) db.collection('messages').updateOne({ _id: row._id }, { $set: { indexed: true } });",
  '    if (rows.length) lastUid = rows[rows.length - 1].uid;',
  '    setTimeout(processPage, 10_000);',
  '  });',
  '}',
  'processPage();',
);
/** A garbage collection run: `wrap` holds the run (a lock's callback, or a server's listen callback); its deletes paced by a timer. */
const gcRun = (wrap: string) =>
  lines(
    'export function collectGarbage() {',
    `  ${wrap} => {`,
    "    const cursor = db.collection('messages').find({ expired: true });",
    '    const next = () => {',
    '      cursor.next((err, message) => {',
    '        if (!message) return;',
    "        db.collection('messages').deleteOne({ _id: message._id }, () => setTimeout(next, 50));",
    '      });',
    '    };',
    '    next();',
    '  });',
    '}',
  );
/** A task lock kept alive by a timer filed under `key`. */
const keepAlive = (key: string) =>
  lines(
    'export class TaskRunner {',
    '  private readonly timers = new Map();',
    '  keepAlive(task) {',
    '    const timer = setTimeout(() => {',
    '      this.extend(task).then(() => this.keepAlive(task));',
    '    }, 30_000);',
    `    this.timers.set(${key}, timer);`,
    '  }',
    '  async extend(task) {',
    "    await this.db.collection('tasks').updateOne({ lock: task.lock }, { $set: { lockedUntil: new Date(Date.now() + 60_000) } });",
    '  }',
    '}',
  );
/** A loop that retries from its error branch and reschedules its period on success. */
const BOOT_SYNC = lines(
  'function sync() {',
  "  api.get('/changes', (err, changes) => {",
  '    if (err) return setTimeout(sync, 5_000);',
  "    db.collection('changes').insertMany(changes);",
  '    setTimeout(sync, 60_000);',
  '  });',
  '}',
  'sync();',
);
/** A janitor whose tick calls `purgeExclusively`, beginning with `gate` (statements). */
const janitor = (...gate: string[]) =>
  lines(
    'export class Janitor {',
    '  start() {',
    '    setInterval(() => {',
    '      this.purgeExclusively().catch((e) => console.warn(e));',
    '    }, 60_000);',
    '  }',
    '  async purgeExclusively() {',
    ...gate.map((statement) => `    ${statement}`),
    '    await this.db.deleteMany({ removedAt: { $lt: new Date(Date.now() - 86_400_000) } });',
    '  }',
    '}',
  );
/**
 * A tick reported at `line`/`column` whose one suggestion makes it async and claims `period` first
 * under the file-and-line job name (`tick` is its head as written, `async` or not).
 */
const claimedFirst = (code: string, line: number, column: number, tick: string, period: string) => ({
  settings,
  code,
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line,
      column,
      suggestions: [
        {
          messageId: 'addClaimPeriod' as const,
          output: `${IMPORT}\n${code.replace(
            `${tick}\n`,
            `setInterval(async () => {\n      if (!(await claimPeriod('mail:file-${line}', ${period}))) return;\n`,
          )}`,
        },
      ],
    },
  ],
});
/** The janitor reported at its tick. */
const janitorReported = (code: string) => claimedFirst(code, 3, 17, 'setInterval(() => {', '60_000');
const electionGate = ["const won = await this.elections.getElection('purge', 60_000);", 'if (!won) return;'];
/** A version check: fetches the latest release and keeps it in a field, logging under a tag (`extra` appended). */
const versionCheck = (extra = '') =>
  lines(
    'export class VersionCheck {',
    '  latest?: string;',
    '  start() {',
    '    setInterval(async () => {',
    "      const res = await fetch('https://releases.example.com/latest');",
    '      this.latest = (await res.json()).version;',
    "      this.log.debug('update-checker', this.latest);",
    ...(extra ? [`      ${extra}`] : []),
    '    }, 86_400_000);',
    '  }',
    '}',
  );

/** A purge started under `condition`: a leader's role, or a setting whose name says lock. */
const purgeStartedIf = (condition: string) =>
  lines(
    'export function startPurge(config, db) {',
    `  if (${condition}) {`,
    '    setInterval(async () => {',
    "      await db.query('DELETE FROM sessions WHERE expires_at < now()');",
    '    }, 60_000);',
    '  }',
    '}',
  );
const LOCK_SETTING = 'config.lockTimeoutMs > 0';
const CHECKED_AT = "await this.db.query('UPDATE versions SET checked_at = now()');";

ruleTester.run('no-unguarded-schedule: continuation timers, late lease gates, log tags', noUnguardedSchedule, {
  valid: [
    // retries of one failed step: an error-first callback, an 'error' listener, a bounded counter, attempts checked first
    { settings, code: ERROR_CALLBACK_RETRY },
    { settings, code: ERROR_LISTENER_RETRY },
    { settings, code: COUNTED_RETRY },
    { settings, code: ATTEMPTS_FIRST },
    { settings, code: retryUntilFound('count < maxCount') },
    { settings, code: retryUntilFound('MAX_COUNT > count') },
    // the next page of one request, which ends by calling the request back (directly, or through a local closure)
    { settings, code: paging('callback(null, true);') },
    { settings, code: paging('done(null, true, { lastUid });') },
    // pacing steps of a run that took a lock first
    { settings, code: gcRun("locks.acquireLock('gc', 60_000, (err, lock)") },
    // a keep-alive filed under the task's own lock
    { settings, code: keepAlive('task.lock') },
    // the lease taken after a log line, or inside a `try` that comes first
    { settings, code: janitor("this.log.info('purging');", ...electionGate) },
    { settings, code: janitor('try {', ...electionGate.map((s) => `  ${s}`), '} catch (e) {', '  return;', '}') },
    // `update-checker` is a log tag, not an UPDATE
    { settings, code: versionCheck() },
    // started only on the elected leader
    { settings, code: purgeStartedIf('config.isLeader') },
  ],
  invalid: [
    // a bound that is not the counter's own maximum: the queue's length does not grow with each retry
    reported(retryUntilFound('queue.length < maxQueue'), 8, 25),
    reported(retryUntilFound('count < maxRows'), 8, 25),
    // the same pages read by a loop started at boot, and a reply that never comes (the request is never called back)
    reported(BOOT_PAGING, 6, 16),
    reported(paging("console.info('fetched');"), 10, 27),
    // the run is held by a server's listen callback, not a lock
    reported(gcRun('server.listen(8080, ()'), 7, 84),
    // the keep-alive filed under a constant: one timer for the process
    reported(keepAlive("'keep-alive'"), 4, 30),
    // the error branch retries, the success path is the loop's period
    reported(BOOT_SYNC, 5, 16, []),
    // the lease taken after an awaited audit write, or in a `try` after the work
    janitorReported(janitor("await this.audit.log('purging');", ...electionGate)),
    janitorReported(
      janitor(
        'await this.db.deleteMany({ draft: true });',
        'try {',
        ...electionGate.map((s) => `  ${s}`),
        '} catch (e) {',
        '  return;',
        '}',
      ),
    ),
    // the check also writes a row
    claimedFirst(versionCheck(CHECKED_AT), 4, 17, 'setInterval(async () => {', '86_400_000'),
    // a lock setting in the start condition is no leader election (LEADER_WORDS stay apart from LEASE_GATE_WORDS)
    claimedFirst(purgeStartedIf(LOCK_SETTING), 3, 17, 'setInterval(async () => {', '60_000'),
  ],
});
