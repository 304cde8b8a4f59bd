// no-read-then-write on Mongo update paths and kept queries: a nested field read from the loaded
// document and `$set` back by its dotted path (`'totals.wins': player.totals.wins + n`), also through
// the document's own `updateOne`, and a query kept in a `const` and run later with `exec()` (`const
// query = Player.findOne(…)` … `await query.exec()`). Not reported: a path given a value not read, one
// computed from another field, the path changed with `$inc`, and an `exec()` of a kept write.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'mongoose', data: { field }, line, column });

/** A player loaded, then `update` sent (line 5). */
const scored = (update: string) =>
  lines(
    "import { Player } from '../models/player';",
    'export async function recordWins(playerId: string, won: number) {',
    '  const player = await Player.findOne({ _id: playerId });',
    '  if (!player) return;',
    `  await ${update};`,
    '}',
  );

/** A player query kept in a `const`, run with `exec()`, then `update` sent (line 6). */
const kept = (query: string, update: string) =>
  lines(
    "import { Player } from '../models/player';",
    'export async function recordWins(playerId: string, won: number) {',
    `  const query = ${query};`,
    '  const player = await query.exec();',
    '  if (!player) return;',
    `  await ${update};`,
    '}',
  );

ruleTester.run('no-read-then-write (Mongo paths and kept queries)', rule, {
  valid: [
    // the path given the request's number, not the one read
    { code: scored("Player.updateOne({ _id: playerId }, { $set: { 'totals.wins': won } })") },
    // the path computed from another field of the document
    { code: scored("Player.updateOne({ _id: playerId }, { $set: { 'totals.wins': player.totals.losses + 1 } })") },
    // the path changed in the database
    { code: scored("Player.updateOne({ _id: playerId }, { $inc: { 'totals.wins': won } })") },
    { code: scored("player.updateOne({ $inc: { 'totals.wins': won } })") },
    // a kept query changed on the server
    { code: kept('Player.findOne({ _id: playerId })', 'Player.updateOne({ _id: playerId }, { $inc: { wins: won } })') },
    // a kept write run with exec(): nothing is read
    {
      code: kept(
        'Player.updateOne({ _id: playerId }, { $set: { seen: true } })',
        'Player.updateOne({ _id: playerId }, { $set: { wins: won } })',
      ),
    },
  ],
  invalid: [
    {
      code: scored("Player.updateOne({ _id: playerId }, { $set: { 'totals.wins': player.totals.wins + won } })"),
      errors: [error('totals.wins', 5, 16)],
    },
    {
      code: scored("player.updateOne({ $set: { ['totals.wins']: player.totals.wins + won } }).exec()"),
      errors: [error('totals.wins', 5, 16)],
    },
    {
      code: kept('Player.findOne({ _id: playerId })', 'Player.updateOne({ _id: playerId }, { $set: { wins: player.wins + won } })'),
      errors: [error('wins', 6, 16)],
    },
  ],
});
