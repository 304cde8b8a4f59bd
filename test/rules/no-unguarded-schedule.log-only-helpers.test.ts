// no-unguarded-schedule on a cron job whose tick first calls a helper of the file named for a heartbeat
// whose body only writes log lines (`logSchedulerHeartbeat()` → `log.info(…)`), then runs the jobs of other
// modules: the helper's name does not make the tick "this instance only" — it writes a log line — so the
// job is judged by what it runs and reported. Its twins, where the heartbeat helper is another module's or
// does more than log (touches a beacon), keep their name's meaning and stay quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'ledger' } };

/** A quarter-hourly tick calling `logSchedulerHeartbeat` (defined by `helper`), then settling ledgers. */
const tick = (helper: string[], imports: string[] = []) => [
  "import { CronJob } from 'cron';",
  "import { settleLedgers } from './ledgers/settle';",
  "import { log } from './log';",
  ...imports,
  ...helper,
  'const settleTick = async () => {',
  '  logSchedulerHeartbeat();',
  '  await settleLedgers();',
  '};',
  "new CronJob('*/15 * * * *', settleTick, null, true, 'UTC');",
];

const LOG_ONLY = [
  "const logSchedulerHeartbeat = (stage = 'settle') => {",
  "  log.info({ stage, pid: process.pid }, 'scheduler heartbeat');",
  '};',
];
const code = tick(LOG_ONLY);
const GUARD = "  if (!(await claimPeriod('ledger:settle-tick', { cron: '*/15 * * * *', tz: 'UTC' }))) return;";

ruleTester.run('no-unguarded-schedule: a heartbeat-named helper that only logs', noUnguardedSchedule, {
  valid: [
    // the heartbeat helper is another module's: its name says "this instance"
    { settings, code: lines(...tick([], ["import { logSchedulerHeartbeat } from './beat';"])) },
    // the helper logs and touches this instance's beacon: a heartbeat
    {
      settings,
      code: lines(
        ...tick(
          [
            "const logSchedulerHeartbeat = (stage = 'settle') => {",
            "  log.info({ stage }, 'scheduler heartbeat');",
            '  beacon.touch(stage);',
            '};',
          ],
          ["import { beacon } from './beacon';"],
        ),
      ),
    },
  ],
  invalid: [
    {
      settings,
      code: lines(...code),
      errors: [{ messageId: 'unguardedSchedule', line: 11, column: 29, suggestions: suggested(code, 2, 7, GUARD) }],
    },
  ],
});
