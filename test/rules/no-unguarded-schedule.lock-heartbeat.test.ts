// no-unguarded-schedule on a lock holder's heartbeat: after the process took a lock (an insert
// that claims the lock row, `tryAcquireSchemaLock()`), it keeps a timer under a heartbeat-named
// handle whose work renews that lock (`UPDATE locks SET expires_at`, `heartbeat_at`). Only the
// holder runs it: quiet. Its twins are reported: the timer does other work itself, nothing was
// acquired before it, or the handle says nothing of a heartbeat.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

const ACQUIRE = [
  '  async acquire(): Promise<boolean> {',
  '    const res = await pool.query(',
  "      'INSERT INTO locks (name, expires_at) VALUES ($1, now() + interval \\'30 seconds\\') ON CONFLICT DO NOTHING',",
  "      ['schema'],",
  '    );',
  '    if (res.rowCount === 0) return false;',
  '    this.start();',
  '    return true;',
  '  }',
];
/** A class keeping `handle = setInterval(…)` whose tick runs `sql`; `acquire` is its lock-taking method when given. */
const holder = (acquire: string[], handle: string, sql: string) =>
  lines(
    "import { pool } from './pool';",
    'export class SchemaLock {',
    '  private heartbeat?: NodeJS.Timeout;',
    '  private timer?: NodeJS.Timeout;',
    ...acquire,
    '  start() {',
    `    ${handle} = setInterval(async () => {`,
    `      await pool.query('${sql}', ['schema']);`,
    '    }, 10_000);',
    '  }',
    '}',
  );
const RENEW = "UPDATE locks SET expires_at = now() + interval \\'30 seconds\\' WHERE name = $1";
const WORK = 'UPDATE invoices SET overdue = true WHERE due_at < now() AND tenant = $1';

/** Reported at the timer (its work is an arrow on the same line); the guard goes first in the arrow. */
const holderReported = (acquire: string[], handle: string, sql: string) => {
  const line = 6 + acquire.length;
  return guardedReport(settings, holder(acquire, handle, sql), {
    line,
    column: handle.length + 20,
    guard: `      if (!(await claimPeriod('index:file-${line}', 10_000))) return;`,
    after: line,
    importAfter: 1,
  });
};

/** A module-level heartbeat started after `tryAcquireSchemaLock()` in the same function. */
const migrator = (acquire: string) =>
  lines(
    "import { db, meta } from './db';",
    'let heartbeatInterval: NodeJS.Timeout | undefined;',
    'export async function migrate() {',
    `  ${acquire}`,
    '  heartbeatInterval = setInterval(async () => {',
    '    await db.update(meta).set({ heartbeat_at: Date.now() });',
    '  }, 10_000);',
    '}',
  );

ruleTester.run('no-unguarded-schedule: a lock holder renewing its lock', noUnguardedSchedule, {
  valid: [
    // the class took the lock row (an insert claiming it, tested); its heartbeat renews it
    { settings, code: holder(ACQUIRE, 'this.heartbeat', RENEW) },
    // a function took the lock before it starts the heartbeat
    { settings, code: migrator('const result = await tryAcquireSchemaLock();') },
  ],
  invalid: [
    // the heartbeat-named timer does other work itself
    holderReported(ACQUIRE, 'this.heartbeat', WORK),
    // nothing was acquired: every replica extends the lock
    holderReported([], 'this.heartbeat', RENEW),
    // the handle says nothing of a heartbeat
    holderReported(ACQUIRE, 'this.timer', RENEW),
    // the function took nothing before the timer
    guardedReport(settings, migrator('const result = await loadSchema();'), {
      line: 5,
      column: 35,
      guard: "    if (!(await claimPeriod('index:file-5', 10_000))) return;",
      after: 5,
      importAfter: 1,
    }),
  ],
});
