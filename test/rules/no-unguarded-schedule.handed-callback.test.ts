// no-unguarded-schedule on a project wrapper whose timer or cron job only runs the callback it was
// handed (`function every(ms, fn) { setInterval(fn, ms) }`, a `createJob(name, cron, task)` method
// building `new CronJob(cron, () => { task(); })`, a wrapper installed over the global
// `setInterval` that counts its timers): the wrapper is quiet, and each call of it in the file
// that hands it work is judged as the schedule, with the usual verdicts — a guard, a lock or
// in-process work there keeps it quiet. Also: a Redis `SET key NX` tested before the work is a lock.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ops' } };

/** `every(ms, fn)` running `fn` directly (`setInterval(fn, ms)`) or inside a logging `try`. */
const EVERY = ['function every(ms: number, fn: () => Promise<void> | void) {', '  setInterval(fn, ms);', '}'];
const EVERY_TRY = [
  'function every(ms: number, fn: () => Promise<void> | void) {',
  '  setInterval(async () => {',
  '    try {',
  '      await fn();',
  '    } catch (error) {',
  "      console.error('tick failed', error);",
  '    }',
  '  }, ms);',
  '}',
];
const SWEEP = "  await db.query('DELETE FROM sessions WHERE expires_at < now()');";

/** A service whose `createJob(name, cronExp, task)` builds a cron job running `task`; `init` is the body of `onModuleInit`. */
const service = (init: string, ...members: string[]) =>
  lines(
    "import { CronJob } from 'cron';",
    'export class TasksService {',
    '  constructor(private readonly db: Db, private readonly seen: Map<string, number>) {}',
    '  createJob(name: string, cronExp: string, task: () => void) {',
    '    const job = new CronJob(cronExp, () => {',
    '      task();',
    '    });',
    '    job.start();',
    '  }',
    '  onModuleInit() {',
    `    ${init}`,
    '  }',
    ...members,
    '}',
  );

ruleTester.run('no-unguarded-schedule: a wrapper running the callback it was handed', noUnguardedSchedule, {
  valid: [
    // the call hands in work that stays in the process
    { settings, code: lines('const cache = new Map<string, number>();', ...EVERY, 'every(1_000, () => cache.clear());') },
    // the call hands in guarded work
    {
      settings,
      code: lines(
        "import { claimPeriod } from 'replica-guard';",
        ...EVERY_TRY,
        'every(60_000, async () => {',
        "  if (!(await claimPeriod('ops:sweep', 60_000))) return;",
        SWEEP,
        '});',
      ),
    },
    // the call hands in work under a lock
    { settings, code: lines(...EVERY_TRY, "every(60_000, () => locks.withLock('sweep', () => db.sweepExpired()));") },
    // no call in the file hands it work (exported for other modules)
    { settings, options: [{ reportAll: true }], code: lines('export ' + EVERY_TRY[0], ...EVERY_TRY.slice(1)) },
    // the callback is a destructured parameter: still the caller's work
    {
      settings,
      options: [{ reportAll: true }],
      code: lines('export function startTicker({ run, ms }: { run: () => void; ms: number }) {', '  setInterval(run, ms);', '}'),
    },
    // a method running its `task` parameter, handed in-process work by its class
    { settings, code: service("this.createJob('forget', '*/5 * * * *', () => this.seen.clear());") },
    // a wrapper over the global setInterval that only tracks its timers: quiet, also under reportAll
    {
      settings,
      options: [{ reportAll: true }],
      code: lines(
        'const originalSetInterval = global.setInterval;',
        'const timers = new Map<unknown, unknown>();',
        'function trackedSetInterval(callback: (...args: unknown[]) => void, delay: number, ...args: unknown[]) {',
        '  const id = originalSetInterval(() => {',
        '    callback(...args);',
        '    timers.delete(id);',
        '  }, delay);',
        '  timers.set(id, { callback, delay });',
        '  return id;',
        '}',
        '(global as any).setInterval = trackedSetInterval;',
      ),
    },
    // a Redis SET NX taken first and tested: one replica holds the key
    {
      settings,
      code: lines(
        'setInterval(async () => {',
        "  if (!(await redis.set('lock:sweep', '1', { NX: true, PX: 60_000 }))) return;",
        SWEEP,
        '}, 60_000);',
      ),
    },
    {
      settings,
      code: lines(
        'setInterval(async () => {',
        "  const acquired = await redis.set('lock:sweep', '1', 'PX', 60_000, 'NX');",
        '  if (!acquired) throw new Error("held");',
        SWEEP,
        '}, 60_000);',
      ),
    },
  ],
  invalid: [
    // the call hands in a shared write: reported at the call, the guard in the work it hands in
    guardedReport(settings, lines(...EVERY, 'every(60_000, async () => {', SWEEP, '});'), {
      line: 4,
      column: 15,
      guard: "  if (!(await claimPeriod('ops:file-4', 60_000))) return;",
      after: 4,
      importAfter: 0,
    }),
    guardedReport(settings, lines(...EVERY_TRY, 'every(60_000, async () => {', SWEEP, '});'), {
      line: 10,
      column: 15,
      guard: "  if (!(await claimPeriod('ops:file-10', 60_000))) return;",
      after: 10,
      importAfter: 0,
    }),
    // a wrapper handing its callback on to another one: the outer wrapper's call is the schedule
    guardedReport(
      settings,
      lines(
        ...EVERY_TRY,
        'function hourly(fn: () => Promise<void>) {',
        '  every(3_600_000, fn);',
        '}',
        'hourly(async () => {',
        '  await mailer.sendDigest();',
        '});',
      ),
      { line: 13, column: 8, guard: "  if (!(await claimPeriod('ops:file-13', 3_600_000))) return;", after: 13, importAfter: 0 },
    ),
    // the method's call hands in a method that deletes rows: a declared job, reported at the call
    guardedReport(
      settings,
      service(
        "this.createJob('purge', '0 * * * *', () => this.purge());",
        '  async purge() {',
        '    await this.db.sessions.deleteMany({});',
        '  }',
      ),
      {
        line: 11,
        column: 42,
        guard: "    if (!(await claimPeriod('ops:purge', { cron: '0 * * * *' }))) return;",
        after: 13,
        importAfter: 1,
      },
    ),
    // the wrapper's timer also does work of its own besides the callback: reported in the wrapper
    {
      settings,
      code: lines(
        'function every(ms: number, fn: () => Promise<void>) {',
        '  setInterval(() => {',
        '    void fn();',
        "    void db.query('DELETE FROM sessions WHERE expires_at < now()');",
        '  }, ms);',
        '}',
      ),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 2, column: 15 }],
    },
    // the SET NX answer is never tested: every replica sweeps
    guardedReport(
      settings,
      lines('setInterval(async () => {', "  await redis.set('lock:sweep', '1', { NX: true, PX: 60_000 });", SWEEP, '}, 60_000);'),
      { line: 1, column: 13, guard: "  if (!(await claimPeriod('ops:file-1', 60_000))) return;", after: 1, importAfter: 0 },
    ),
  ],
});

/** A client class whose timer calls `this.<method>()`, a method defined elsewhere (assigned to the prototype in another file). */
const client = (method: string) =>
  lines('export class CloudClient {', '  start() {', `    this.interval = setInterval(() => this.${method}(), 60_000);`, '  }', '}');

ruleTester.run("no-unguarded-schedule: a reconnect of this process's own connection", noUnguardedSchedule, {
  // `schedule…` reads as an enqueue by its name; `…Reconnects` says the connection is this process's.
  valid: [{ settings, code: client('scheduleQuickReconnects') }],
  invalid: [
    {
      settings,
      code: client('scheduleReminders'),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 3,
          column: 33,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output: lines(
                "import { claimPeriod } from 'replica-guard';",
                'export class CloudClient {',
                '  start() {',
                '    this.interval = setInterval(async () => {',
                "      if (!(await claimPeriod('ops:file-3', 60_000))) return;",
                '      return this.scheduleReminders();',
                '    }, 60_000);',
                '  }',
                '}',
              ),
            },
          ],
        },
      ],
    },
  ],
});
