// no-unguarded-schedule where a bare timer's work, written in place, hands another project module's
// function the function that opens the database (`setInterval(() => tallyStandings(createLeagueDb),
// ms)`, `getPool`, `connectDb`): that module's job runs over the shared database each period, as when
// the handle itself is handed over. A factory of something else (`createRenderer`), or a name for this
// process's own upkeep (`reloadSettingsCache`), leaves the timer judged as before.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'api' } };

const timer = (call: string) =>
  lines(
    "import { tallyStandings, reloadSettingsCache } from './lib/standings.js';",
    "import { connect } from './lib/db.js';",
    '',
    'const createLeagueDb = () => connect(process.env.LEAGUE_URL);',
    'const createRenderer = () => ({ width: 80 });',
    '',
    `setInterval(() => ${call}, 6 * 3_600_000);`,
  );

const guarded = (call: string) =>
  lines(
    timer(call)
      .replace(
        "import { connect } from './lib/db.js';",
        "import { connect } from './lib/db.js';\nimport { claimPeriod } from 'replica-guard';",
      )
      .replace(
        `setInterval(() => ${call}, 6 * 3_600_000);`,
        `setInterval(async () => {\n  if (!(await claimPeriod('api:file-7', 6 * 3_600_000))) return;\n  return ${call};\n}, 6 * 3_600_000);`,
      ),
  );

ruleTester.run('no-unguarded-schedule: a database factory handed to another module', noUnguardedSchedule, {
  valid: [
    { settings, code: timer('tallyStandings(createRenderer)') },
    { settings, code: timer('reloadSettingsCache(createLeagueDb)') },
  ],
  invalid: [
    {
      settings,
      code: timer('tallyStandings(createLeagueDb)'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 13,
          suggestions: [{ messageId: 'addClaimPeriod', output: guarded('tallyStandings(createLeagueDb)') }],
        },
      ],
    },
  ],
});
