// no-read-then-write on a document's list written back whole: a list field spread into a longer one
// and assigned back before a save (`album.tags = [...album.tags, tag]`), an element of the loaded list
// changed from its own value before the list is `$set` (`lines[i].qty += n`), and a Mongo update
// document kept in a `const` before the write (`const modifier = { $set: { lines } }`). Not reported:
// the field copied as it is, a list built from other values, another field written, the list changed
// on the server (`$push`, `$inc` on the element's path).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** An album loaded, its tags list set with `assign`, then saved (line 5). */
const retag = (assign: string) =>
  lines(
    "const Album = require('../models/album');",
    'async function addTag(albumId, tag, defaults) {',
    '  const album = await Album.findById(albumId);',
    `  ${assign};`,
    '  await album.save();',
    '}',
    'module.exports = addTag;',
  );

/** A basket's lines read, `change` made, then `update` sent (line 7). */
const basket = (change: string, update: string) =>
  lines(
    "import { Basket } from '../models';",
    'export async function addToBasket(basketId: string, sku: string, n: number) {',
    '  const found = await Basket.findOne({ _id: basketId });',
    '  const basketLines = found.lines;',
    '  const at = basketLines.findIndex((line) => line.sku === sku);',
    `  ${change};`,
    `  await Basket.updateOne({ _id: basketId }, ${update});`,
    '}',
  );

/** A playlist's tracks rebuilt with `map`, the update document kept in `modifier` (the write on line 6). */
const playlist = (modifier: string) =>
  lines(
    'export async function dropTrack(ctx, playlistId, trackId) {',
    '  const { Playlists } = ctx.collections;',
    '  const list = await Playlists.findOne({ _id: playlistId });',
    '  const tracks = list.tracks.map((t) => (t._id === trackId ? { ...t, removed: true } : t));',
    `  const modifier = ${modifier};`,
    '  const { modifiedCount } = await Playlists.findOneAndUpdate({ _id: playlistId }, modifier, { returnDocument: "after" });',
    '  return modifiedCount;',
    '}',
  );

ruleTester.run('no-read-then-write (lists written back whole)', rule, {
  valid: [
    // the field copied as it is; a list built from other values
    retag('album.tags = [...album.tags]'),
    retag('album.tags = [...defaults, tag]'),
    // the element changed, another field written; the element's field changed on the server
    basket('basketLines[at].qty += n', "{ $set: { note: 'edited' } }"),
    basket('basketLines[at].qty += n', '{ $inc: { [`lines.${at}.qty`]: n } }'),
    // a list item added on the server, a time stamp set
    playlist('{ $set: { updatedAt: new Date() }, $push: { tracks: { _id: trackId } } }'),
  ],
  invalid: [
    {
      code: retag('album.tags = [...album.tags, tag]'),
      errors: [error('mongoose', 'tags', 5, 15)],
    },
    {
      code: basket('basketLines[at].qty += n', '{ $set: { lines: basketLines } }'),
      errors: [error('mongoose', 'lines', 7, 16)],
    },
    {
      code: playlist('{ $set: { tracks, updatedAt: new Date() } }'),
      errors: [error('mongoose', 'tracks', 6, 45)],
    },
  ],
});
