// no-unguarded-schedule on a bare timer whose work reads the due rows from a shared store and hands
// each row whole to an awaited function it cannot read (`for (const g of await db.giveaway.findMany(…))
// await bot.giveaways.end(g)`): business work on shared rows, reported as a declared job is, though
// the function that ends each row is out of reach. Its twin filling this process's cache from the
// rows, and one that only logs them, stay quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';
const settings = { 'replica-guard': { service: 'raffle' } };

/** A ready handler whose per-minute timer reads due giveaways and runs `each` on every one. */
const ready = (each: string) => [
  "import { db } from './db';",
  'export function onReady(bot: Bot, seen: Map<string, unknown>): void {',
  '  setInterval(async () => {',
  '    const due = await db.giveaway.findMany({ where: { ended: false, endsAt: { lte: new Date() } } });',
  '    for (const giveaway of due) {',
  `      ${each}`,
  '    }',
  '  }, 60_000);',
  '}',
];
const GUARD = "    if (!(await claimPeriod('raffle:file-3', 60_000))) return;";
const END = 'await bot.giveaways.end(giveaway);';

ruleTester.run('no-unguarded-schedule: a timer handing each due row on', noUnguardedSchedule, {
  valid: [
    // the rows fill this process's map
    { settings, code: lines(...ready('seen.set(giveaway.id, giveaway);')) },
    // the rows are only logged
    { settings, code: lines(...ready("console.log('due', giveaway.id);")) },
  ],
  invalid: [
    // each row handed to a method of the bot's giveaway manager, awaited
    {
      settings,
      code: lines(...ready(END)),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 15,
          suggestions: suggested(ready(END), 0, 3, GUARD),
        },
      ],
    },
  ],
});
