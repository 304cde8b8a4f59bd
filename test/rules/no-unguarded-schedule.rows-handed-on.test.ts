// no-unguarded-schedule on a bare timer whose work reads the due rows from a shared store and hands
// each row whole to an awaited function it cannot read (`for (const g of await db.giveaway.findMany(…))
// await bot.giveaways.end(g)`): business work on shared rows, reported as a declared job is, though
// the function that ends each row is out of reach. Its twin filling this process's cache from the
// rows, and one that only logs them, stay quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'raffle' } };

/** A ready handler whose per-minute timer reads due giveaways and runs `each` on every one. */
const ready = (each: string) =>
  lines(
    "import { db } from './db';",
    'export function onReady(bot: Bot, seen: Map<string, unknown>): void {',
    '  setInterval(async () => {',
    '    const due = await db.giveaway.findMany({ where: { ended: false, endsAt: { lte: new Date() } } });',
    '    for (const giveaway of due) {',
    `      ${each}`,
    '    }',
    '  }, 60_000);',
    '}',
  );

const guarded = (code: string) => {
  const out = code.split('\n');
  out.splice(3, 0, "    if (!(await claimPeriod('raffle:file-3', 60_000))) return;");
  out.splice(1, 0, "import { claimPeriod } from 'replica-guard';");
  return lines(...out);
};

ruleTester.run('no-unguarded-schedule: a timer handing each due row on', noUnguardedSchedule, {
  valid: [
    // the rows fill this process's map
    { settings, code: ready('seen.set(giveaway.id, giveaway);') },
    // the rows are only logged
    { settings, code: ready("console.log('due', giveaway.id);") },
  ],
  invalid: [
    // each row handed to a method of the bot's giveaway manager, awaited
    {
      settings,
      code: ready('await bot.giveaways.end(giveaway);'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 15,
          suggestions: [{ messageId: 'addClaimPeriod', output: guarded(ready('await bot.giveaways.end(giveaway);')) }],
        },
      ],
    },
  ],
});
