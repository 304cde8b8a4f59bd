// no-read-then-write when a Mongoose document's array is spliced or reordered in JavaScript and the
// document saved: Mongoose marks the whole array changed and `save()` sends it with `$set`, over an
// element another request added since the load. Not reported: `push` / `pull` / `addToSet` (sent
// as `$push` / `$pull` / `$addToSet`), or an array the save does not send.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A raffle document loaded by its channel, its `tickets` changed by `change`, then saved. */
const raffle = (change: string) =>
  lines(
    "import { Raffle } from './raffle.model';",
    "import mongoose from 'mongoose';",
    'export async function leave(channelId: string, holder: string) {',
    '  const raffle = await Raffle.findOne({ channelId });',
    '  const at = raffle.tickets.indexOf(holder);',
    '  if (at < 0) return false;',
    `  ${change}`,
    '  await raffle.save();',
    '  return true;',
    '}',
  );

ruleTester.run('no-read-then-write (document arrays rewritten whole)', rule, {
  valid: [
    // sent as `$push` / `$pull` / `$addToSet`
    raffle('raffle.tickets.push(holder);'),
    raffle('raffle.tickets.pull(holder);'),
    raffle('raffle.tickets.addToSet(holder);'),
    // a local copy changed: the document's array is untouched
    raffle('const left = [...raffle.tickets]; left.splice(at, 1);'),
  ],
  invalid: [
    { code: raffle('raffle.tickets.splice(at, 1);'), errors: [{ messageId: 'mongoose', line: 8, column: 16 }] },
    { code: raffle('raffle.tickets.sort();'), errors: [{ messageId: 'mongoose', line: 8, column: 16 }] },
  ],
});
