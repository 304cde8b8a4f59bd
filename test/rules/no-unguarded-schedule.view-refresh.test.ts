// no-unguarded-schedule on work that rebuilds a materialized view (`REFRESH MATERIALIZED VIEW
// [CONCURRENTLY] …`): a write on the shared database every replica repeats, whatever the call that
// sends it is named — in a poll loop, a timer's function, or the one function of the file its arrow
// calls. A work that only reads a materialized view stays quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'atlas' } };

/** A loop rebuilding (or reading) the weekly rollup every ten minutes; `statement` is the SQL it sends. */
const rollupLoop = (statement: string) =>
  lines(
    "import pg from './pg';",
    "import { pause } from './pause';",
    'export async function keepRollupFresh() {',
    '  while (true) {',
    `    await pg\`${statement}\`.catch((e) => console.warn(e));`,
    '    await pause(600_000);',
    '  }',
    '}',
  );

/** A timer whose arrow calls a function of the file that sends `statement` through a query call. */
const rollupTimer = (statement: string) =>
  lines(
    "import { pool } from './pool';",
    'async function rebuildRollup() {',
    `  await pool.query('${statement}');`,
    '}',
    'setInterval(() => {',
    '  void rebuildRollup();',
    '}, 300_000);',
  );

ruleTester.run('no-unguarded-schedule: materialized views refreshed', noUnguardedSchedule, {
  valid: [
    { settings, code: rollupLoop('SELECT week, total FROM weekly_rollup_materialized') },
    { settings, code: rollupTimer('SELECT count(*) FROM weekly_rollup_materialized') },
  ],
  invalid: [
    {
      settings,
      code: rollupLoop('REFRESH MATERIALIZED VIEW CONCURRENTLY weekly_rollup'),
      errors: [{ messageId: 'unguardedSchedule', line: 4, column: 3, suggestions: [] }],
    },
    {
      settings,
      code: rollupLoop('refresh materialized view weekly_rollup'),
      errors: [{ messageId: 'unguardedSchedule', line: 4, column: 3, suggestions: [] }],
    },
    {
      settings,
      code: rollupTimer('REFRESH MATERIALIZED VIEW weekly_rollup'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 5,
          column: 13,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: rollupTimer('REFRESH MATERIALIZED VIEW weekly_rollup').replace(
                'async function rebuildRollup() {',
                "import { claimPeriod } from 'replica-guard';\nasync function rebuildRollup() {\n  if (!(await claimPeriod('atlas:rebuild-rollup', 300_000))) return;",
              ),
            },
          ],
        },
      ],
    },
  ],
});
