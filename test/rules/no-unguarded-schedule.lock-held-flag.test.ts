// no-unguarded-schedule on work gated by a flag that says this process holds a distributed lock:
// the work's first statement requires a variable that is set `true` only inside a callback handed
// to a lock or lease call (`onLock` of a lock starter, the `.then` of `lease.acquire()`). Every
// replica arms the timer, one runs the work: quiet. Reported when the flag is also set true
// elsewhere, set under an in-process mutex, or set by a callback of a call that takes no lock.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

/** A module arming a cron job whose work starts with `first` (`alone`: is only that), and taking the flag with `take`. */
const gated = (first: string, take: string[], alone = false) =>
  lines(
    "import * as schedule from 'node-schedule';",
    "import { db, startDistributedLock, lease, mutex, server } from './infra';",
    'let stopped = false;',
    'let holdsLock = false;',
    'export async function startJobs() {',
    "  schedule.scheduleJob('* * * * *', async () => {",
    `    ${first}`,
    ...(alone ? [] : ["    await db.query('DELETE FROM sessions WHERE expires_at < now()');"]),
    '  });',
    ...take,
    '}',
  );

const ON_LOCK = [
  '  await startDistributedLock({',
  "    resource: 'jobs',",
  '    onLock: () => {',
  '      holdsLock = true;',
  '    },',
  '    onUnlock: () => {',
  '      holdsLock = false;',
  '    },',
  '  });',
];
const THEN = ["  void lease.acquire('jobs').then(() => {", '    holdsLock = true;', '  });'];
const EXIT_FLAG_ONLY = 'if (!holdsLock) return;';

const reported = (first: string, take: string[]) =>
  guardedReport(settings, gated(first, take), {
    line: 6,
    column: 37,
    guard: "    if (!(await claimPeriod('index:file-6', { cron: '* * * * *' }))) return;",
    after: 6,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule (lock-held flag)', noUnguardedSchedule, {
  valid: [
    // Set true in the lock starter's `onLock`, false in its `onUnlock`.
    { settings, code: gated(EXIT_FLAG_ONLY, ON_LOCK) },
    // Set true in the `.then` of a lease acquired by name.
    { settings, code: gated(EXIT_FLAG_ONLY, THEN) },
    // The whole work as one `&&` chain requiring the flag.
    {
      settings,
      code: gated("!stopped && holdsLock && (await db.query('UPDATE reports SET sent = true'));", ON_LOCK, true),
    },
  ],
  invalid: [
    // The flag is also set true when the jobs start, lock or not.
    reported(EXIT_FLAG_ONLY, [...ON_LOCK, '  holdsLock = true;']),
    // Set under an in-process mutex: every replica holds its own.
    reported(EXIT_FLAG_ONLY, ['  await mutex.runExclusive(() => {', '    holdsLock = true;', '  });']),
    // Set by a callback of a call that takes no lock.
    reported(EXIT_FLAG_ONLY, ["  server.on('listening', () => {", '    holdsLock = true;', '  });']),
    // The work does not require the flag (it only skips while stopped).
    reported('if (stopped) return;', ON_LOCK),
  ],
});
