// no-unguarded-schedule on a timer whose work fills a cache on a miss: it reads a key from a store
// and sets that same key, with the value it computed, only when the read found nothing. Quiet,
// whatever the store is; its twins that set the key every time, or set another key than the one
// read, write shared state each period and are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';
const settings = { 'replica-guard': { service: 'desk' } };

/** A status board refreshed every minute from a count kept in Redis; `fill` is the statements that set the key. */
const board = (read: string, fill: string[]) => [
  "import { redis, db, bot } from './clients';",
  'async function refreshBoard(): Promise<void> {',
  `  ${read}`,
  ...fill.map((statement) => `  ${statement}`),
  '  bot.user.setActivity(`${summary.open} open requests`);',
  '}',
  'setInterval(() => void refreshBoard(), 60_000);',
];
const GUARD = "  if (!(await claimPeriod('desk:refresh-board', 60_000))) return;";
/** Reported at the timer's work, line `line`, with the guard suggested first in `refreshBoard`. */
const reported = (code: string[], line: number) => ({
  settings,
  code: lines(...code),
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line,
      column: 13,
      suggestions: suggested(code, 0, 2, GUARD),
    },
  ],
});
const READ = "let summary = await redis.get('board:summary');";
const computed = ['const open = await db.request.count({ where: { closedAt: null } });', 'summary = { open };'];

ruleTester.run('no-unguarded-schedule: a cache filled on a miss', noUnguardedSchedule, {
  valid: [
    // the key read missing is set with the value computed in its place
    {
      settings,
      code: lines(
        ...board(READ, ['if (!summary) {', ...computed.map((s) => `  ${s}`), "  await redis.set('board:summary', summary, 300_000);", '}']),
      ),
    },
    // a test for undefined, and Redis's expiry arguments
    {
      settings,
      code: lines(
        ...board(READ, [
          'if (summary === undefined) {',
          ...computed.map((s) => `  ${s}`),
          "  await redis.set('board:summary', summary, 'EX', 300);",
          '}',
        ]),
      ),
    },
  ],
  invalid: [
    // set every time: a shared write each period
    reported(board(READ, [...computed, "await redis.set('board:summary', summary, 300_000);"]), 9),
    // set on a miss, but another key than the one read
    reported(
      board(READ, ['if (!summary) {', ...computed.map((s) => `  ${s}`), "  await redis.set('board:history', summary, 300_000);", '}']),
      11,
    ),
  ],
});
