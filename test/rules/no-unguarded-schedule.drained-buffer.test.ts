// no-unguarded-schedule on a job that flushes what this process gathered in memory: an hourly cron
// whose method walks an instance collection (`Object.entries(this.statsPerTeam)`), sends each entry
// and starts the collection afresh (`this.statsPerTeam = {}`). Each replica reports its own figures,
// once: not reported, also for a declared job. Reported when the collection is walked but kept (a
// list loaded once and mailed every hour from every replica).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

/** A reporter whose hourly job calls `send()`, which walks `this.statsPerTeam` and then runs `after`. */
const reporter = (after: string) =>
  lines(
    "import * as schedule from 'node-schedule';",
    "import { db } from './db';",
    'export class StatusReport {',
    '  private statsPerTeam: Record<string, number> = {};',
    '  start(): void {',
    "    schedule.scheduleJob('0 * * * *', () => {",
    '      this.send();',
    '    });',
    '  }',
    '  add(team: string, ms: number): void {',
    '    this.statsPerTeam[team] = (this.statsPerTeam[team] ?? 0) + ms;',
    '  }',
    '  private send(): void {',
    '    for (const [team, ms] of Object.entries(this.statsPerTeam)) {',
    "      void db.query('INSERT INTO plugin_durations (team, ms) VALUES ($1, $2)', [team, ms]);",
    '    }',
    `    ${after}`,
    '  }',
    '}',
  );

/** The collection kept after the walk. */
const KEPT = "console.log('sent');";

ruleTester.run('no-unguarded-schedule (drained buffer)', noUnguardedSchedule, {
  valid: [
    { settings, code: reporter('this.statsPerTeam = {};') },
    { settings, code: reporter('this.statsPerTeam = {} as Record<string, number>;') },
  ],
  invalid: [
    {
      settings,
      code: reporter(KEPT),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 6,
          column: 39,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: reporter(KEPT)
                .replace("import { db } from './db';", "import { db } from './db';\nimport { claimPeriod } from 'replica-guard';")
                .replace(
                  '  private send(): void {',
                  "  private async send(): Promise<void> {\n    if (!(await claimPeriod('index:send', { cron: '0 * * * *' }))) return;",
                ),
            },
          ],
        },
      ],
    },
  ],
});
