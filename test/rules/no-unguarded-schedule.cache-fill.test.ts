// no-unguarded-schedule on a timer whose work fills a cache on a miss: it reads a key from a store
// and sets that same key, with the value it computed, only when the read found nothing. Quiet,
// whatever the store is; its twins that set the key every time, or set another key than the one
// read, write shared state each period and are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'desk' } };

/** A status board refreshed every minute from a count kept in Redis; `fill` is the statements that set the key. */
const board = (read: string, fill: string[]) =>
  lines(
    "import { redis, db, bot } from './clients';",
    'async function refreshBoard(): Promise<void> {',
    `  ${read}`,
    ...fill.map((statement) => `  ${statement}`),
    '  bot.user.setActivity(`${summary.open} open requests`);',
    '}',
    'setInterval(() => void refreshBoard(), 60_000);',
  );
/** The one suggestion: the guard imported under the first import and put first in `refreshBoard`. */
const guarded = (code: string) => {
  const out = code.split('\n');
  out.splice(2, 0, "  if (!(await claimPeriod('desk:refresh-board', 60_000))) return;");
  out.splice(1, 0, "import { claimPeriod } from 'replica-guard';");
  return lines(...out);
};
/** Reported at the timer's work, line `line`, with the guard suggested. */
const reported = (code: string, line: number) => ({
  settings,
  code,
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line,
      column: 13,
      suggestions: [{ messageId: 'addClaimPeriod' as const, output: guarded(code) }],
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
      code: board(READ, [
        'if (!summary) {',
        ...computed.map((s) => `  ${s}`),
        "  await redis.set('board:summary', summary, 300_000);",
        '}',
      ]),
    },
    // a test for undefined, and Redis's expiry arguments
    {
      settings,
      code: board(READ, [
        'if (summary === undefined) {',
        ...computed.map((s) => `  ${s}`),
        "  await redis.set('board:summary', summary, 'EX', 300);",
        '}',
      ]),
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
