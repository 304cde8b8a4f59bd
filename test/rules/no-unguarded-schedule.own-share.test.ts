// no-unguarded-schedule on shapes whose file tells whose work it is: a cron plugin object handed to
// a web framework (`app.use(cron({ pattern, run }))`) is a declared job; a database file of this
// host (better-sqlite3) swept of expired rows, the renewal armed by the function that takes a lock,
// work over the users connected to this process's sockets, a temporary file older than a day
// (dates compared with a date package), a timer its own work clears once one command is served,
// and a script in the repository's `scripts/` folder are this process's. Their twins are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'svc' } };

/** `new Elysia().use(cron({ … run }))`, `run` given as `run`. */
const elysia = (imports: string, run: string) =>
  lines(
    imports,
    "import { Elysia } from 'elysia';",
    'export const app = new Elysia().use(',
    '  cron({',
    "    name: 'digest',",
    "    pattern: '0 * * * *',",
    `    run: ${run},`,
    '  }),',
    ');',
  );

ruleTester.run('no-unguarded-schedule: a cron plugin object handed to a web framework', noUnguardedSchedule, {
  valid: [
    // the work begins with a guard
    {
      settings,
      code: elysia(
        "import cron from '@elysiajs/cron';\nimport { claimPeriod } from 'replica-guard';",
        "async () => { if (!(await claimPeriod('svc:digest', '0 * * * *'))) return; await db.sendDigests(); }",
      ),
    },
    // a `cron` of the project's own, not the plugin
    { settings, code: elysia("import { cron } from './cron';", 'async () => { await db.sendDigests(); }') },
  ],
  invalid: [
    // the default export, and the named one
    ...["import cron from '@elysiajs/cron';", "import { cron } from '@elysiajs/cron';"].map((imports) =>
      guardedReport(settings, elysia(imports, 'async () => {\n      await db.sendDigests();\n    }'), {
        line: 4,
        column: 3,
        guard: "      if (!(await claimPeriod('svc:digest', { cron: '0 * * * *' }))) return;",
        after: 7,
        importAfter: 2,
      }),
    ),
  ],
});

/** A session store on `open`, swept every minute by `sweepSessions` (`db.<sweep>`, DELETE its SQL; it logs through `log`). */
const sessionStore = (
  imports: string,
  open: string,
  log = "const { debug, warn } = new Log('Session');",
  sweep = 'prepare(DELETE).run()',
) =>
  lines(
    imports,
    log,
    `const db = ${open};`,
    'function sweepSessions() {',
    `  db.${sweep.replace('DELETE', "'DELETE FROM session WHERE expires < 0'")};`,
    "  debug('swept');",
    '}',
    'setInterval(() => sweepSessions(), 60_000);',
  );

const PG_IMPORTS = "import { Pool } from 'pg';\nimport { Log } from 'log-kit';";

ruleTester.run('no-unguarded-schedule: a database file of this host swept', noUnguardedSchedule, {
  valid: [
    // better-sqlite3 on a file: each replica sweeps its own file; the logger's writers destructured
    {
      settings,
      code: sessionStore("import Database from 'better-sqlite3';\nimport { Log } from 'log-kit';", "new Database('./sessions.db')"),
    },
    // sqlite3's class through its namespace, a console logger
    {
      settings,
      code: sessionStore(
        "import sqlite3 from 'sqlite3';",
        "new sqlite3.Database('./sessions.db')",
        'const debug = (...a: unknown[]) => console.log(...a);',
        'exec(DELETE)',
      ),
    },
  ],
  invalid: [
    // a server database: every replica deletes the same rows
    {
      settings,
      code: sessionStore(PG_IMPORTS, 'new Pool()', undefined, 'query(DELETE)'),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 9,
          column: 13,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output: sessionStore(
                `${PG_IMPORTS}\nimport { claimPeriod } from 'replica-guard';`,
                'new Pool()',
                undefined,
                'query(DELETE)',
              ).replace(
                'function sweepSessions() {',
                "async function sweepSessions() {\n  if (!(await claimPeriod('svc:sweep-sessions', 60_000))) return;",
              ),
            },
          ],
        },
      ],
    },
  ],
});
