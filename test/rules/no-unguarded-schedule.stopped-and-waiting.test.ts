// no-unguarded-schedule on three gates read in the work's own file: a cron job built stopped that
// nothing starts (quiet; started at the top level, built with `start: true`, or handed to other code:
// reported); work that runs only on the branch a won Redis `SET key NX` lease opens (quiet; the
// branch testing something else, or a write outside it: reported); a timer that waits until a
// check passes and re-arms only while it fails (quiet; re-armed after the work too, or work before
// the check: reported). The exported job started or not in another module: projects-schedule.test.ts.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ledger' } };

/** A session purge built stopped (`options` as its arguments after the work), then `after`. */
const purge = (after: string[], built = "new CronJob('0 * * * *', purgeSessions)") =>
  lines(
    "import { CronJob } from 'cron';",
    "import { pool } from './db';",
    'async function purgeSessions() {',
    "  await pool.query('DELETE FROM sessions WHERE expires_at < now()');",
    '}',
    `const sessionSweep = ${built};`,
    'export function shutdown() {',
    '  sessionSweep.stop();',
    '}',
    ...after,
  );
const purgeReport = (code: string) =>
  guardedReport(settings, code, {
    line: 6,
    column: 47,
    guard: "  if (!(await claimPeriod('ledger:purge-sessions', { cron: '0 * * * *' }))) return;",
    after: 3,
    importAfter: 2,
  });

/** Late-payment reminders re-armed every minute; `branch` opens the work, `before` runs ahead of it. */
const reminders = (branch: string, before: string[] = []) =>
  lines(
    "import { redis } from './redis';",
    "import { Invoice, Settings } from './models';",
    'export async function remindLate(leaseTtl = 20) {',
    "  const taken = leaseTtl ? await redis.set('reminders:lease', '1', 'EX', leaseTtl, 'NX') : 'OK';",
    "  const config = await Settings.findOne({ key: 'reminders' });",
    ...before,
    `  if (${branch}) {`,
    '    const late = await Invoice.find({ paid: false });',
    '    for (const invoice of late) await Invoice.updateOne({ _id: invoice._id }, { $set: { reminded: true } });',
    '  } else {',
    "    console.debug('reminders run elsewhere');",
    '  }',
    '  setTimeout(remindLate, 60_000);',
    '}',
  );
/** The report at the reschedule; the guard re-arms the loop before it leaves. */
const remindersReport = (code: string) =>
  guardedReport(settings, code, {
    line: code.split('\n').length - 1,
    column: 14,
    guard: "  if (!(await claimPeriod('ledger:remind-late', 60_000))) { setTimeout(remindLate, 60_000); return; }",
    after: 3,
    importAfter: 2,
  });
/** The report at a re-arm of the wait loop (no suggestion is offered for it). */
const waitReport = (code: string, line: number) => ({
  settings,
  code,
  errors: [{ messageId: 'unguardedSchedule' as const, line, column: 28, suggestions: [] }],
});

/** A wait for the store at start-up: `ready` is the passing branch, `before` runs ahead of the check. */
const waitForStore = (ready: string[], before: string[] = []) =>
  lines(
    "import { storeIsUp } from './store';",
    "import { pool } from './db';",
    'let waitTimer: NodeJS.Timeout | undefined;',
    'const waitForStore = async () => {',
    ...before,
    '  const reachable = await storeIsUp();',
    '  if (reachable) {',
    "    console.info('store reachable');",
    "    await pool.query('UPDATE boot_marks SET seen_at = now()');",
    ...ready,
    '  } else {',
    '    waitTimer = setTimeout(waitForStore, 15_000);',
    '  }',
    '};',
    'waitTimer = setTimeout(waitForStore, 15_000);',
  );

ruleTester.run('no-unguarded-schedule: jobs never started, won leases, waits until ready', noUnguardedSchedule, {
  valid: [
    // Built stopped, only ever stopped: it never runs.
    { settings, code: purge([]) },
    { settings, code: purge([], "new CronJob({ cronTime: '0 * * * *', onTick: purgeSessions, start: false })") },
    // The reminders are sent only on the branch the won lease opens; the read and the reschedule write nothing.
    { settings, code: reminders("taken === 'OK'") },
    // Re-armed only while the store is unreachable; the work runs once.
    { settings, code: waitForStore([]) },
  ],
  invalid: [
    // Started at the module's top level: every replica runs it.
    purgeReport(purge(['sessionSweep.start();'])),
    // Handed to a registry that may start it.
    purgeReport(purge(['registry.add(sessionSweep);'])),
    // The object form started as it is built.
    guardedReport(settings, purge([], "new CronJob({ cronTime: '0 * * * *', onTick: purgeSessions, start: true })"), {
      line: 6,
      column: 67,
      guard: "  if (!(await claimPeriod('ledger:purge-sessions', { cron: '0 * * * *' }))) return;",
      after: 3,
      importAfter: 2,
    }),
    // The branch tests the settings, not the lease: every replica sends.
    remindersReport(reminders('config.enabled')),
    // A write before the branch runs on every replica.
    remindersReport(reminders("taken === 'OK'", ['  await Invoice.updateMany({ stale: true }, { $set: { stale: false } });'])),
    // Re-armed after the work too: a loop that repeats the update on every replica.
    waitReport(waitForStore(['    waitTimer = setTimeout(waitForStore, 60_000);']), 9),
    // The update runs before the check, on every pass.
    waitReport(waitForStore([], ["  await pool.query('UPDATE boot_marks SET tries = tries + 1');"]), 11),
  ],
});
