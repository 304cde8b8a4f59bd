// no-unguarded-schedule on schedules a project registers through its own code:
// - a job added to a job manager of its own, defined in another module: the call carries a cron schedule (an
//   expression written out, or a `cronTime` option) and a work function — a registration, judged like a declared
//   job. A string of five numbers, a callee that formats or validates the expression, a test helper: not one.
// - a timer armed through an injected timer provider (`this.timers.setTimeout`, a field set to
//   `{ setTimeout, clearTimeout }`): the global timer; a socket's or a request's `setTimeout` is not.
// - a one-shot timer that runs a schedule's work at once (a start-up catch-up run): that schedule's work.
// A generic manager building `new CronJob(options)` from what its callers hand it is a wrapper: its callers are judged.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'kiosk' } };
const manual = (line: number, column: number) => ({ messageId: 'unguardedSchedule' as const, line, column, suggestions: [] });
/** The guard line the suggestion inserts. */
const guard = (indent: number, job: string, period: string) =>
  `${' '.repeat(indent)}if (!(await claimPeriod('kiosk:${job}', ${period}))) return;`;
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/** A job manager of the project handed a job: its name, a schedule written out, and a function that prunes rosters. */
const positional = (schedule: string) =>
  lines(
    "import { pool } from './pool';",
    'export class RosterService {',
    '  constructor(private readonly scheduler: TaskBoard) {}',
    '  init() {',
    `    this.scheduler.add('roster-prune', '${schedule}', pruneRosters);`,
    '  }',
    '}',
    'async function pruneRosters() {',
    "  await pool.query('DELETE FROM rosters WHERE archived_at < now()');",
    '}',
  );

/** A job object with a cron time and an `onTick` that mails a digest. */
const jobObject = (callee: string) =>
  lines(
    "import { mailer } from './mailer';",
    'export function bootDigests(app: App) {',
    `  ${callee}({`,
    "    cronTime: '0 6 * * 1',",
    '    onTick: async () => {',
    "      await mailer.send({ to: 'ops@example.org', subject: 'weekly digest' });",
    '    },',
    '  });',
    '}',
  );

/** A job built from an imported class of the project with its cron time read from settings and a command defined below. */
const configured = lines(
  "import { NightlyTask } from './tasks';",
  "import { pool } from './pool';",
  'export function registerCartSweep(ctx: Ctx) {',
  "  return new NightlyTask(ctx, { title: 'cart sweep', cronTime: ctx.settings.get('cart_sweep_cron'), command: sweepCarts });",
  '}',
  'const sweepCarts = async () => {',
  "  await pool.query('DELETE FROM carts WHERE updated_at < now() - interval \\'7 days\\'');",
  '};',
);

/** A token refresher arming its next run through a timer provider handed in or kept in a field. */
const refresher = (field: string, constructorBody: string) =>
  lines(
    "import { pool } from './pool';",
    'export class BadgeRefresher {',
    `  private readonly ${field}: any;`,
    `  constructor(provider?: any) { ${constructorBody} }`,
    '  async refresh() {',
    "    await pool.query('UPDATE badges SET refreshed_at = now()');",
    `    this.${field}.setTimeout(() => this.refresh(), 60_000);`,
    '  }',
    '}',
  );

/** A cron job built stopped and started, and a start-up timer one second out. */
const catchUp = (timerBody: string) =>
  lines(
    "import { CronJob } from 'cron';",
    "import { pool } from './pool';",
    'export class ReminderJob {',
    '  private job = new CronJob(',
    "    '0 * * * *',",
    '    async () => {',
    "      await pool.query('UPDATE reminders SET sent = true WHERE due_at < now()');",
    '    },',
    '    null,',
    '    false,',
    '  );',
    '  boot() {',
    '    this.job.start();',
    '    setTimeout(async () => {',
    `      ${timerBody}`,
    '    }, 1000);',
    '  }',
    '}',
  );

/** The cron job's own finding in `catchUp`: its suggestion puts the guard first in the job's callback. */
const jobReport = (code: string) => ({
  messageId: 'unguardedSchedule' as const,
  line: 4,
  column: 17,
  suggestions: [
    {
      messageId: 'addClaimPeriod' as const,
      output: code
        .replace("'./pool';", `'./pool';\n${IMPORT}`)
        .replace('    async () => {\n', `    async () => {\n${guard(6, 'file-4', "{ cron: '0 * * * *' }")}\n`),
    },
  ],
});

/** A nightly ledger compaction under node-cron, and a timer set beside it. */
const beside = (timer: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { pool } from './pool';",
    'export function startLedgers() {',
    "  cron.schedule('30 2 * * *', compactLedgers);",
    `  ${timer}`,
    '}',
    'async function compactLedgers() {',
    "  await pool.query('DELETE FROM ledger_lines WHERE settled = true');",
    '}',
    'async function warmLedgerCache() {',
    '  await pool.connect();',
    '}',
  );
const besideGuarded = (timer: string) =>
  beside(timer)
    .replace("'./pool';", `'./pool';\n${IMPORT}`)
    .replace(
      'async function compactLedgers() {\n',
      `async function compactLedgers() {\n${guard(2, 'compact-ledgers', "{ cron: '30 2 * * *' }")}\n`,
    );

ruleTester.run('no-unguarded-schedule (own job managers and timer providers)', noUnguardedSchedule, {
  valid: [
    // Five numbers are no cron schedule.
    { settings, code: positional('1 2 3 4 5') },
    // A callee that formats, describes or validates the expression registers nothing.
    { settings, code: jobObject('app.scheduleLabels.format') },
    { settings, code: jobObject('isValidSchedule') },
    // A package's API (a hosted scheduler's task) is the catalogue's to know; a helper function imported from another
    // module of the project is followed to what it schedules (its guard may be there).
    {
      settings,
      code: lines(
        "import { tasks } from '@hosted/scheduler';",
        "import { pool } from './pool';",
        "export const nightlyCleanup = tasks.define({ id: 'nightly-cleanup', cron: '0 1 * * *', run: async () => {",
        "  await pool.query('DELETE FROM drafts WHERE stale = true');",
        '} });',
      ),
    },
    {
      settings,
      code: lines(
        "import { everyCron } from '@/lib/cron';",
        "import { pool } from './pool';",
        "everyCron('ledger-close', '0 * * * *', async () => {",
        "  await pool.query('UPDATE ledgers SET closed = true WHERE day < current_date');",
        '});',
      ),
    },
    // A class imported from another module of the project is followed there (constructed-helper.ts), not judged here.
    { settings, code: configured },
    // A test helper runs in no replica.
    { settings, code: positional('15 * * * *'), filename: 'test/helpers/roster-board.ts' },
    // A generic manager building `new CronJob(options)` from what its callers hand it: a wrapper, its callers judged.
    {
      settings,
      code: lines(
        "import { CronJob, CronJobParams } from 'cron';",
        'export class TaskBoard {',
        '  private jobs = new Set<CronJob>();',
        '  add(options: CronJobParams) {',
        '    const job = new CronJob(options);',
        '    this.jobs.add(job);',
        '    job.start();',
        '    return job;',
        '  }',
        '}',
      ),
    },
    // Another object's `setTimeout`: a socket's idle timeout, a request's.
    {
      settings,
      code: lines(
        "import { store } from './store';",
        'export function watch(socket: Socket, req: Request) {',
        '  socket.setTimeout(30_000);',
        "  req.setTimeout(5000, async () => { await store.del('pending'); });",
        '}',
      ),
    },
    {
      settings,
      code: refresher('session', 'this.session = provider;').replace('this.session.setTimeout', 'this.session.setTimeout'),
    },
  ],
  invalid: [
    // A job manager's `add(name, schedule, work)`: reported at the work handed in.
    guardedReport(settings, positional('15 * * * *'), {
      line: 5,
      column: 54,
      guard: guard(2, 'prune-rosters', "{ cron: '15 * * * *' }"),
      after: 8,
      importAfter: 1,
    }),
    // A job object with a cron time and its work, on whatever receiver.
    ...['app.jobRunner.register', 'this.cronBoard.addJob'].map((callee) =>
      guardedReport(settings, jobObject(callee), {
        line: 3,
        column: 3,
        guard: guard(6, 'file-3', "{ cron: '0 6 * * 1' }"),
        after: 5,
        importAfter: 1,
      }),
    ),
    // A self-rescheduling timer through a provider named or typed for timers, or a field given the global timer.
    ...[
      ['timers', 'this.timers = provider;'],
      ['clock', 'this.clock = provider as Clock;'],
      ['t', 'this.t = { now: Date.now, setTimeout, clearTimeout };'],
    ].map(([field, body]) => {
      const code = refresher(field!, body!);
      const reschedule = `this.${field}.setTimeout(() => this.refresh(), 60_000);`;
      const output = code
        .replace("'./pool';", `'./pool';\n${IMPORT}`)
        .replace(
          'async refresh() {\n',
          `async refresh() {\n    if (!(await claimPeriod('kiosk:refresh', 60_000))) { ${reschedule} return; }\n`,
        );
      return {
        settings,
        code,
        errors: [
          {
            messageId: 'unguardedSchedule' as const,
            line: 7,
            column: 22 + field!.length,
            suggestions: [{ messageId: 'addClaimPeriod' as const, output }],
          },
        ],
      };
    }),
    // A start-up timer firing the cron job's tick at once: the job's work, reported at the timer (no suggestion).
    {
      settings,
      code: catchUp('if (await overdue()) this.job.fireOnTick();'),
      errors: [jobReport(catchUp('if (await overdue()) this.job.fireOnTick();')), manual(14, 16)],
    },
    // The same function handed to a cron schedule and to a timer two seconds out.
    {
      settings,
      code: beside('setTimeout(compactLedgers, 2000);'),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 4,
          column: 31,
          suggestions: [{ messageId: 'addClaimPeriod' as const, output: besideGuarded('setTimeout(compactLedgers, 2000);') }],
        },
        manual(5, 14),
      ],
    },
    // Twins: a start-up timer that only starts the job or warms a cache runs none of its work.
    { settings, code: catchUp('this.job.start();'), errors: [jobReport(catchUp('this.job.start();'))] },
    {
      settings,
      code: beside('setTimeout(() => warmLedgerCache(), 2000);'),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 4,
          column: 31,
          suggestions: [{ messageId: 'addClaimPeriod' as const, output: besideGuarded('setTimeout(() => warmLedgerCache(), 2000);') }],
        },
      ],
    },
  ],
});
