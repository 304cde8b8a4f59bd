// no-unguarded-schedule on work run through a lock helper of the project (`withLock(key, fn)`,
// `acquireLock(key)`, `runLocked(fn)`), trusted by its name as a lock across replicas. When the
// helper's body keeps its lock in this process — a `Set` or `Map` of held keys, a promise chain,
// an async-mutex per key — and otherwise only runs what it was handed, every replica takes its own
// lock: the work is judged as if the helper were not there. A helper that asks Redis (`SET NX`) or
// PostgreSQL (`pg_try_advisory_xact_lock`), or one of a package, keeps its name's meaning.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

/** A module defining the helper `helper` and a cron job whose work is `work`. */
const job = (helper: string[], work: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import { db, redis } from './infra';",
    ...helper,
    "cron.schedule('*/5 * * * *', async () => {",
    ...work,
    '});',
  );

const WRITE = "    await db.query(\"UPDATE receipts SET status = 'sent' WHERE status = 'queued'\");";
const WRAPPED = ["  await withLock('receipts', async () => {", WRITE, '  });'];
const GATED = ["  if (!(await acquireLock('receipts'))) return;", WRITE.slice(2)];
const CHAINED = ['  await runLocked(async () => {', WRITE, '  });'];

const HELD_SET = [
  'const running = new Set<string>();',
  'async function withLock(key: string, fn: () => Promise<void>) {',
  '  if (running.has(key)) return;',
  '  running.add(key);',
  '  try {',
  '    await fn();',
  '  } finally {',
  '    running.delete(key);',
  '  }',
  '}',
];
const REDIS_WRAPPER = [
  'async function withLock(key: string, fn: () => Promise<void>) {',
  "  const taken = await redis.set(`lock:${key}`, '1', 'PX', 60_000, 'NX');",
  "  if (taken !== 'OK') return;",
  '  try {',
  '    await fn();',
  '  } finally {',
  '    await redis.del(`lock:${key}`);',
  '  }',
  '}',
];
const HELD_MAP_GATE = [
  'const holders = new Map<string, number>();',
  'async function acquireLock(key: string): Promise<boolean> {',
  '  if (holders.has(key)) return false;',
  '  holders.set(key, Date.now());',
  '  return true;',
  '}',
];
const REDIS_GATE = [
  'async function acquireLock(key: string): Promise<boolean> {',
  "  return (await redis.set(`lock:${key}`, '1', { NX: true, PX: 60_000 })) === 'OK';",
  '}',
];
const PROMISE_CHAIN = [
  'let tail: Promise<unknown> = Promise.resolve();',
  'function runLocked<T>(fn: () => Promise<T>): Promise<T> {',
  '  const next = tail.then(fn);',
  '  tail = next.catch(() => undefined);',
  '  return next;',
  '}',
];
const ADVISORY_XACT = [
  'async function runLocked<T>(fn: () => Promise<T>): Promise<T | undefined> {',
  '  return db.transaction(async (trx) => {',
  "    const { rows } = await trx.query('SELECT pg_try_advisory_xact_lock(4711) AS locked');",
  '    if (!rows[0].locked) return undefined;',
  '    return fn();',
  '  });',
  '}',
];

/** The report at the cron job, its guard after the `cron.schedule(` line. */
const reported = (helper: string[], work: string[]) =>
  guardedReport(settings, job(helper, work), {
    line: helper.length + 3,
    column: 30,
    guard: `  if (!(await claimPeriod('index:file-${helper.length + 3}', { cron: '*/5 * * * *' }))) return;`,
    after: helper.length + 3,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule (in-process lock helpers)', noUnguardedSchedule, {
  valid: [
    // The same names taking a lock every replica sees: Redis SET NX, a transaction advisory lock.
    { settings, code: job(REDIS_WRAPPER, WRAPPED) },
    { settings, code: job(REDIS_GATE, GATED) },
    { settings, code: job(ADVISORY_XACT, CHAINED) },
    // A helper answering a flag it keeps no lock in (set by a lock elsewhere), and an election's answer:
    // nothing in them says the lock is this process's, so their names are trusted.
    {
      settings,
      code: job(
        [
          'let holding = false;',
          'void startRedlock({ onLock: () => { holding = true; } });',
          'async function acquireLock(key: string) {',
          '  return holding;',
          '}',
        ],
        GATED,
      ),
    },
    {
      settings,
      code: job(
        ['const elected = new Set<string>();', 'function isLeader(): boolean {', "  return elected.has('self');", '}'],
        ['  if (!isLeader()) return;', WRITE.slice(2)],
      ),
    },
    // A helper of a package cannot be read: its name is trusted.
    { settings, code: job(["import { withLock } from '@acme/locks';"], WRAPPED) },
  ],
  invalid: [
    // A Set of running keys: every replica runs the job once.
    reported(HELD_SET, WRAPPED),
    // A Map of holders answered as a lease gate.
    reported(HELD_MAP_GATE, GATED),
    // A promise chain: the jobs of this process run one after another.
    reported(PROMISE_CHAIN, CHAINED),
  ],
});
