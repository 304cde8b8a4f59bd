// no-unguarded-schedule on timers that are schedules by what surrounds them. A one-off `setTimeout`
// armed once per row read from a shared store (every replica reads the same rows at boot and arms
// the same timers) is reported when its callback writes shared state; armed per row to drop this
// process's own memory, or per element of an array the file holds, it is no schedule. A bare timer
// running the same work as a declared job set up beside it (its twin) is judged as that job.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'notes' } };

/** Reminders read with `read`, one timer each running `statement`. */
const armReminders = (read: string, statement: string) => [
  "import { Pool } from 'pg';",
  'const db = new Pool();',
  'const pending = new Map<string, number>();',
  "const fixtures = [{ id: 'seed', due_at: new Date() }];",
  'export async function armReminders(): Promise<void> {',
  `  const rows = ${read};`,
  '  for (const row of rows) {',
  '    setTimeout(async () => {',
  `      ${statement}`,
  '    }, new Date(row.due_at).getTime() - Date.now());',
  '  }',
  '}',
];
const FROM_DB = "(await db.query('SELECT id, due_at FROM reminders WHERE sent = false')).rows";
const STORED = "await db.query('SELECT id, due_at FROM reminders WHERE sent = false')";
const MARK_SENT = "await db.query('UPDATE reminders SET sent = true WHERE id = $1', [row.id]);";

/** A croner job refreshing feeds and, in `timerBody`, a timer beside it. */
const withTwin = (timerBody: string) => [
  "import { Cron } from 'croner';",
  "import { refreshFeeds, warmCache } from '@acme/feeds';",
  'export function start(): void {',
  "  new Cron('0 * * * *', async () => {",
  '    await refreshFeeds();',
  '  });',
  '  setInterval(async () => {',
  `    ${timerBody}`,
  '  }, 30_000);',
  '}',
];

ruleTester.run('no-unguarded-schedule: timers armed per stored row, timer twins', noUnguardedSchedule, {
  valid: [
    // one timer per stored row, dropping this process's own entry
    { settings, code: lines(...armReminders(STORED.replace('await', '(await') + ').rows', 'pending.delete(row.id);')) },
    // one timer per element of an array the file holds: no rows read from a shared store
    { settings, code: lines(...armReminders('fixtures', MARK_SENT)) },
  ],
  invalid: [
    // a stored row's timer marks it sent: each replica sends and marks each reminder (no suggestion: a claim per row is needed)
    {
      settings,
      code: lines(...armReminders(FROM_DB, MARK_SENT)),
      errors: [{ messageId: 'unguardedSchedule', line: 8, column: 16, suggestions: [] }],
    },
    {
      settings,
      code: lines(...withTwin('await refreshFeeds();')),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 25,
          suggestions: suggested(
            withTwin('await refreshFeeds();'),
            1,
            4,
            "    if (!(await claimPeriod('notes:file-4', { cron: '0 * * * *' }))) return;",
          ),
        },
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 15,
          suggestions: suggested(withTwin('await refreshFeeds();'), 1, 7, "    if (!(await claimPeriod('notes:file-7', 30_000))) return;"),
        },
      ],
    },
  ],
});

// A timer beside the declared job running other work than the job's is a bare timer still.
ruleTester.run('no-unguarded-schedule: a timer beside a declared job', noUnguardedSchedule, {
  valid: [],
  invalid: [
    {
      settings,
      code: lines(...withTwin('await warmCache();')),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 25,
          suggestions: suggested(
            withTwin('await warmCache();'),
            1,
            4,
            "    if (!(await claimPeriod('notes:file-4', { cron: '0 * * * *' }))) return;",
          ),
        },
      ],
    },
  ],
});
