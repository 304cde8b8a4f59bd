// no-unguarded-schedule's text pre-check and text-found callers: a timer or scheduler named only in
// a comment is nothing; a scheduler imported under an alias (no timer name anywhere) is found by its
// quoted module; the leader gate reads callers found where their names are written, whatever
// form the call takes (`this['start']()`, `this.#start()`, a call spread over lines).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const guard = (job: string, period: string) => `if (!(await claimPeriod('billing:${job}', ${period}))) return;`;
const SWEEP = 'await this.db.query("DELETE FROM sessions WHERE expires_at < now()")';
const TIMER = [`    this.timer = setInterval(async () => ${SWEEP}, 60_000);`];
const GUARDED_TIMER = [
  '    this.timer = setInterval(async () => {',
  `      ${guard('file-6', '60_000')}`,
  `      return ${SWEEP};`,
  '    }, 60_000);',
];

/** A class whose init() calls its method `method` as `call` writes it (under `condition` when given). */
const starter = (method: string, call: string, condition?: string, timer = TIMER): string =>
  lines(
    'class Sweeper {',
    '  init() {',
    `    ${condition ? `if (${condition}) ` : ''}${call};`,
    '  }',
    `  ${method}() {`,
    ...timer,
    '  }',
    '}',
  );

const reportedWith = (method: string, call: string) => ({
  messageId: 'unguardedSchedule' as const,
  line: 6,
  column: 30,
  endLine: 6,
  endColumn: 110,
  suggestions: [{ messageId: 'addClaimPeriod' as const, output: lines(IMPORT, starter(method, call, undefined, GUARDED_TIMER)) }],
});

ruleTester.run('no-unguarded-schedule pre-check and callers', noUnguardedSchedule, {
  valid: [
    // Named only in comments: the pre-check lets the file through, the scope analysis finds no timer.
    {
      settings,
      code: lines(
        '// setInterval(sweep, 60_000) used to run here; see node-cron',
        '/* import cron from "node-cron" */',
        'export const sweep = () => db.query("DELETE FROM sessions");',
      ),
    },
    // Started only on the leader, through callers written in every form.
    { settings, code: starter('start', "this['start']()", 'this.instance.isLeader') },
    { settings, code: starter('start', 'this\n      .start()', 'this.instance.isLeader') },
    { settings, code: starter('#start', 'this.#start()', 'this.instance.isLeader') },
  ],
  invalid: [
    // node-cron under an alias: neither timer name is written, the module is.
    {
      settings,
      code: lines(
        "import { schedule as every } from 'node-cron';",
        "every('0 * * * *', async () => {",
        "  await db.query('UPDATE invoices SET status = $1', ['due']);",
        '});',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 2,
          column: 20,
          endLine: 2,
          endColumn: 32,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { schedule as every } from 'node-cron';",
                IMPORT,
                "every('0 * * * *', async () => {",
                `  ${guard('file-2', "{ cron: '0 * * * *' }")}`,
                "  await db.query('UPDATE invoices SET status = $1', ['due']);",
                '});',
              ),
            },
          ],
        },
      ],
    },
    // The same callers without the leader condition: the timer runs on every replica.
    { settings, code: starter('start', "this['start']()"), errors: [reportedWith('start', "this['start']()")] },
    { settings, code: starter('#start', 'this.#start()'), errors: [reportedWith('#start', 'this.#start()')] },
  ],
});
