// no-read-then-write: a number allocated from a loaded document's own list (one past its last
// entry's), put in the entry pushed onto that list (or set on a copy pushed after), and the document saved — by its own `save()` or
// handed to a save helper of the module. Two requests or replicas number their entries alike. Not
// reported: a number the request gave, a document built in the function, a document not saved
// after the push, an entry pushed onto a local list.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { jsRuleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

/** A mural loaded through the module's finder, a edit numbered from `top` pushed, then `save`. */
const revise = (top: string, number: string, save = 'await mural.save()', load = 'await findMural({ slug })') =>
  lines(
    "const Mural = require('../models/mural')",
    'async function findMural(query) {',
    '  return Mural.findOne(query)',
    '}',
    'async function storeMural(mural) {',
    '  const stored = await mural.save()',
    '  return stored.toObject()',
    '}',
    'async function addRevision({ slug, layout }, input, editorId) {',
    `  const mural = ${load}`,
    `  const top = ${top}`,
    `  mural.edits.push({ number: ${number}, layout, editorId })`,
    `  ${save}`,
    '}',
    'module.exports = { addRevision }',
  );

const LAST = 'mural.edits[mural.edits.length - 1]';

jsRuleTester.run('no-read-then-write (numbered entries pushed onto a loaded document)', rule, {
  valid: [
    revise(LAST, 'input.number + 1'),
    revise(LAST, 'top.number + 1', 'await mural.save()', 'new Mural({ slug, edits: [] })'),
    revise(LAST, 'top.number + 1', 'return mural.edits.length'),
    lines(
      "const Mural = require('../models/mural')",
      'async function plan(slug, layout) {',
      '  const mural = await Mural.findOne({ slug })',
      '  const drafts = []',
      '  const top = mural.edits[mural.edits.length - 1]',
      '  drafts.push({ number: top.number + 1, layout })',
      '  await Mural.create({ slug: `${slug}-draft`, drafts })',
      '}',
      'module.exports = { plan }',
    ),
    lines(
      "const Mural = require('../models/mural')",
      'async function sketch(slug, layout) {',
      '  const mural = await Mural.findOne({ slug })',
      '  const top = mural.edits[mural.edits.length - 1]',
      '  const copy = { layout }',
      '  copy.number = top.number + 1',
      '  const sketches = [copy]',
      '  await mural.save()',
      '  return sketches',
      '}',
      'module.exports = { sketch }',
    ),
  ],
  invalid: [
    // the number set on a copy of an entry, the copy pushed after
    {
      code: lines(
        "const Mural = require('../models/mural')",
        'async function restore(slug, layout) {',
        '  const mural = await Mural.findOne({ slug })',
        '  const top = mural.edits[mural.edits.length - 1]',
        '  const copy = { layout }',
        '  copy.number = top.number + 1',
        '  mural.edits.push(copy)',
        '  await mural.save()',
        '}',
        'module.exports = { restore }',
      ),
      errors: [error('number', 6, 17)],
    },
    // the last entry of the document's list, the document's own save
    { code: revise(LAST, 'top.number + 1'), errors: [error('number', 12, 30)] },
    // the entry a helper picks from the document, the document handed to the module's save helper
    { code: revise('pickNewest(mural)', 'top.number + 1', 'return storeMural(mural)'), errors: [error('number', 12, 30)] },
  ],
});
