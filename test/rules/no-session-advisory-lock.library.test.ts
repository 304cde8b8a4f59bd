// no-session-advisory-lock: locks taken through a lock library whose mutexes run session advisory
// locks on a connection of their own (`advisory-lock`), where the file writes no SQL.
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noSessionAdvisoryLock, type NoSessionAdvisoryLockMessageIds } from '../../rules/no-session-advisory-lock.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noSessionAdvisoryLock as unknown as Parameters<typeof ruleTester.run<NoSessionAdvisoryLockMessageIds, readonly unknown[]>>[1];

const IMPORT = "import advisoryLock from 'advisory-lock';";

/** Where the `nth` `.method(` of `code` is named (the squiggle covers the method's name). */
function at(code: string, method: string, nth = 0): { line: number; column: number; endLine: number; endColumn: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = code.indexOf(`.${method}(`, index + 1);
  if (index === -1) throw new Error(`.${method}( not in test code`);
  const before = code.slice(0, index + 1);
  const line = before.split('\n').length;
  const column = index + 1 - before.lastIndexOf('\n');
  return { line, column, endLine: line, endColumn: column + method.length };
}

const madeAtCall = lines(
  IMPORT,
  "const mutex = advisoryLock(process.env.DATABASE_URL!)('delete_drafts');",
  'export async function tick() {',
  '  const unlock = await mutex.tryLock();',
  '  if (!unlock) return;',
  '  try { await deleteDrafts(); } finally { await unlock(); }',
  '}',
);

const factoryKept = lines(
  IMPORT,
  'const createMutex = advisoryLock(url);',
  "export const nightly = () => createMutex('nightly').withLock(async () => closePeriod());",
);

const typedParameter = lines(
  IMPORT,
  "import { CronJob } from 'cron';",
  'type CreateMutex = ReturnType<typeof advisoryLock>;',
  'type Mutex = ReturnType<CreateMutex>;',
  'export const createJob = (cronTime: string, work: () => Promise<void>, mutex: Mutex) =>',
  '  new CronJob(cronTime, async () => {',
  '    const unlock = await mutex.tryLock();',
  '    if (unlock) { try { await work(); } finally { await unlock(); } }',
  '  });',
);

const classField = lines(
  IMPORT,
  'export class Reports {',
  "  private readonly mutex = advisoryLock(url)('reports');",
  '  run() { return this.mutex.lockShared(); }',
  '}',
);

const commonJs = lines(
  "const advisoryLock = require('advisory-lock');",
  "const mutex = advisoryLock.default(process.env.DATABASE_URL)('refreshUsers');",
  'module.exports = async () => { await mutex.lock(); try { await refresh(); } finally { await mutex.unlock(); } };',
);

const MUTEX_CLASS = "import PGMutexLock from 'pg-mutex-lock';";

const constructed = lines(
  MUTEX_CLASS,
  'const mutex = new PGMutexLock({ database: process.env.DATABASE_URL, timeout: 1000 });',
  'export async function tick() {',
  "  await mutex.acquireLock('digest');",
  "  try { await sendDigest(); } finally { await mutex.releaseLock('digest'); }",
  '}',
);

const constructedInField = lines(
  MUTEX_CLASS,
  'export class Leader {',
  '  private mutex: PGMutexLock;',
  '  constructor() { this.mutex = new PGMutexLock({ retryCount: 1 }); }',
  "  elect() { return this.mutex.acquireLock('leader'); }",
  '}',
);

const typedLet = lines(
  MUTEX_CLASS,
  'let mutex: PGMutexLock | null = null;',
  "export const elect = async () => { mutex ??= makeMutex(); return mutex.acquireLock('leader'); };",
);

ruleTester.run('no-session-advisory-lock: lock libraries', rule, {
  valid: [
    // the same method names on a mutex from anywhere else (an in-memory mutex, a Redis lock)
    lines("import { Mutex } from 'async-mutex';", 'const mutex = new Mutex();', 'export const run = () => mutex.withLock(work);'),
    lines(IMPORT, "import { redlock } from './redis';", "export const run = () => redlock.lock('job', 1000);"),
    // the factory itself, and the unlock: one report per lock, at the lock
    lines(IMPORT, 'const createMutex = advisoryLock(url);', 'export const stop = (unlock: () => Promise<void>) => unlock();'),
    lines(IMPORT, "const mutex = advisoryLock(url)('job');", 'export const release = () => mutex.unlock();'),
    // a parameter typed with anything but the library's mutex
    lines(IMPORT, 'export const run = (mutex: { tryLock(): Promise<boolean> }) => mutex.tryLock();'),
    // test code plays a second instance
    { code: madeAtCall, filename: 'src/schedulers/create-job.test.ts' },
    // a class of the same name from elsewhere, and the release alone
    lines(
      "import PGMutexLock from './in-memory-mutex';",
      'const mutex = new PGMutexLock();',
      "export const run = () => mutex.acquireLock('k');",
    ),
    lines(MUTEX_CLASS, 'const mutex = new PGMutexLock();', "export const release = () => mutex.releaseLock('k');"),
  ],
  invalid: [
    {
      code: madeAtCall,
      errors: [
        {
          messageId: 'libraryLock',
          data: { method: 'tryLock', library: 'advisory-lock', name: 'pg_try_advisory_lock' },
          ...at(madeAtCall, 'tryLock'),
          suggestions: [],
        },
      ],
    },
    { code: factoryKept, errors: [{ messageId: 'libraryLock', ...at(factoryKept, 'withLock') }] },
    {
      code: constructed,
      errors: [
        {
          messageId: 'libraryLock',
          data: { method: 'acquireLock', library: 'pg-mutex-lock', name: 'pg_try_advisory_lock' },
          ...at(constructed, 'acquireLock'),
        },
      ],
    },
    { code: constructedInField, errors: [{ messageId: 'libraryLock', ...at(constructedInField, 'acquireLock') }] },
    { code: typedLet, errors: [{ messageId: 'libraryLock', ...at(typedLet, 'acquireLock') }] },
    { code: typedParameter, errors: [{ messageId: 'libraryLock', ...at(typedParameter, 'tryLock') }] },
    {
      code: classField,
      errors: [{ messageId: 'libraryLock', data: { method: 'lockShared', library: 'advisory-lock', name: 'pg_advisory_lock_shared' } }],
    },
  ],
});

jsRuleTester.run('no-session-advisory-lock: lock libraries from CommonJS', rule, {
  valid: [lines("const advisoryLock = require('advisory-lock');", 'module.exports = () => other.lock();')],
  invalid: [{ code: commonJs, errors: [{ messageId: 'libraryLock', ...at(commonJs, 'lock') }] }],
});
