// no-unguarded-schedule on work that tries a database lock first and leaves when it did not get
// it: `pg_try_advisory_lock` sent through a query tag or a `pool.query` whose SQL is kept in a
// `const`, its answer read into a flag (`held = r.rows[0]?.got === true`) and tested before the
// work — in a same-class method a timer calls (behind an in-process running flag and an async
// IIFE), or in a local `runOnce`-style arrow a cron job calls. Quiet; the twins that never test the
// answer, or write before they try the lock, are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'vault' } };

/** A token store whose daily timer calls `purgeUnderLock`; `tried` is what it does with the lock's answer, `before` runs first. */
const tokenStore = (tried: string[], before: string[] = []) =>
  lines(
    'export class TokenStore {',
    '  private purging = false;',
    '  private timer?: NodeJS.Timeout;',
    '  constructor(private readonly prisma: PrismaClient, private readonly lockKey: number) {}',
    '  start(): void {',
    '    this.timer = setInterval(() => {',
    '      void this.purgeUnderLock();',
    '    }, 24 * 60 * 60 * 1000);',
    '  }',
    '  private async purgeUnderLock(): Promise<void> {',
    '    if (this.purging) return;',
    '    this.purging = true;',
    '    await (async () => {',
    '      try {',
    ...before,
    '        const res = await this.prisma.$queryRaw<{ pg_try_advisory_lock: boolean }[]>`SELECT pg_try_advisory_lock(${this.lockKey})`;',
    ...tried,
    '        await this.prisma.apiToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });',
    '        await this.prisma.$queryRaw`SELECT pg_advisory_unlock(${this.lockKey})`;',
    '      } finally {',
    '        this.purging = false;',
    '      }',
    '    })();',
    '  }',
    '}',
  );
const testsWon = [
  '        const won = res[0]?.pg_try_advisory_lock;',
  '        if (!won) {',
  "          console.info('another replica purges');",
  '          return;',
  '        }',
];

/** A morning digest: a local `sendOnce` tries the lock with `TRY_SQL` and `gate` decides, then sends; a cron job calls it. */
const digest = (gate: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import { pool } from './db';",
    "import { mailer } from './mailer';",
    'export function scheduleDigest() {',
    '  const sendOnce = async () => {',
    "    const TRY_SQL = 'SELECT pg_try_advisory_lock(hashtext($1)) AS got';",
    '    let held = false;',
    '    try {',
    "      const r = await pool.query(TRY_SQL, ['morning-digest']);",
    ...gate,
    '      await mailer.sendDigest(await pool.query("SELECT id FROM readers"));',
    '    } finally {',
    "      if (held) await pool.query('SELECT pg_advisory_unlock(hashtext($1))', ['morning-digest']);",
    '    }',
    '  };',
    "  cron.schedule('0 8 * * *', () => {",
    '    sendOnce();',
    '  });',
    '}',
  );
const heldGate = ['      held = r.rows[0]?.got === true;', '      if (!held) return;'];

/** A positive form: the work runs only inside `if (rows[0].locked)`, the SQL a module constant. */
const positive = (test: string) =>
  lines(
    "import { CronJob } from 'cron';",
    "import { db } from './db';",
    "const LOCK = 'SELECT pg_try_advisory_xact_lock(42) AS locked';",
    'async function rollUp() {',
    '  await db.tx(async (t) => {',
    '    const rows = await t.query(LOCK);',
    `    if (${test}) {`,
    "      await t.none('UPDATE totals SET rolled = true WHERE day < current_date');",
    '    }',
    '  });',
    '}',
    "new CronJob('5 0 * * *', rollUp, null, true);",
  );

/** An hourly ledger sync: the try-lock answer destructured from a Sequelize query (`const [rows] = …`), read into a flag, then `gate`. */
const ledgerSync = (gate: string[]) =>
  lines(
    "import { sequelize } from './db';",
    "import { pullLedger } from './ledger';",
    'export const startLedgerSync = () => {',
    '  setInterval(async () => {',
    '    let gotIt = false;',
    '    try {',
    "      const [rows]: any = await sequelize.query('SELECT pg_try_advisory_lock(:key) AS ok', { replacements: { key: 77 } });",
    '      gotIt = rows[0].ok;',
    ...gate,
    "      await sequelize.query('UPDATE ledger_sync SET pulled_at = now()');",
    '      await pullLedger();',
    '    } finally {',
    "      if (gotIt) await sequelize.query('SELECT pg_advisory_unlock(:key)', { replacements: { key: 77 } });",
    '    }',
    '  }, 60 * 60 * 1000);',
    '};',
  );

ruleTester.run('no-unguarded-schedule: a database lock tried first', noUnguardedSchedule, {
  valid: [
    { settings, code: tokenStore(testsWon) },
    { settings, code: digest(heldGate) },
    { settings, code: positive('rows[0].locked') },
    { settings, code: ledgerSync(['      if (!gotIt) {', "        console.log('another replica syncs');", '        return;', '      }']) },
  ],
  invalid: [
    // The destructured answer is read into the flag, but nothing leaves on it.
    guardedReport(settings, ledgerSync([]), {
      line: 4,
      column: 15,
      guard: "    if (!(await claimPeriod('vault:file-4', 60 * 60 * 1000))) return;",
      after: 4,
      importAfter: 2,
    }),
    // The answer is never tested: every replica purges.
    guardedReport(settings, tokenStore([]), {
      line: 6,
      column: 30,
      guard: "    if (!(await claimPeriod('vault:purge-under-lock', 24 * 60 * 60 * 1000))) return;",
      after: 10,
      importAfter: 0,
    }),
    // The purge runs before the lock is tried.
    guardedReport(settings, tokenStore(testsWon, ['        await this.prisma.apiToken.deleteMany({ where: { revoked: true } });']), {
      line: 6,
      column: 30,
      guard: "    if (!(await claimPeriod('vault:purge-under-lock', 24 * 60 * 60 * 1000))) return;",
      after: 10,
      importAfter: 0,
    }),
    // The answer read into the flag, but nothing leaves on it.
    guardedReport(settings, digest(['      held = r.rows[0]?.got === true;']), {
      line: 16,
      column: 30,
      guard: "    if (!(await claimPeriod('vault:send-once', { cron: '0 8 * * *' }))) return;",
      after: 5,
      importAfter: 3,
    }),
    // A test of something else than the lock's answer.
    guardedReport(settings, positive('process.env.ROLLUP'), {
      line: 12,
      column: 26,
      guard: "  if (!(await claimPeriod('vault:roll-up', { cron: '5 0 * * *' }))) return;",
      after: 4,
      importAfter: 2,
    }),
  ],
});
