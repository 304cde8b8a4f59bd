// no-read-then-write on the documents of a Mongoose list read — `Model.find()` given no argument or a
// filter object (an array's `find` takes a predicate) — walked with `for … of` or picked with the
// array's own `find(predicate)`, each changed from its own field and saved; on a document read again
// by a listed document's key (`Shop.findOne({ _id: shop._id })`) and written back under that key;
// and on a field changed through a non-null assertion (`product.quantity! -= n`). Not reported: an
// array's `find` of values read from no database, a list whose documents are written a value not
// computed from their own field, a value read from another document written to a listed one.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A daily job over `read`: each user's streak set with `change`, then saved. */
const streaks = (read: string, change: string) =>
  lines(
    "const User = require('../models/user');",
    'async function rollStreaks() {',
    `  const users = await ${read};`,
    '  for (const user of users) {',
    `    ${change};`,
    '    await user.save();',
    '  }',
    '}',
    'module.exports = rollStreaks;',
  );

/** Each listed shop's document read by `filter`, its tags filtered and written to the listed shop (the write on line 7). */
const retag = (filter: string) =>
  lines(
    "import { Shop } from '../models';",
    'export async function retagShops() {',
    '  const shops = await Shop.find({ active: true });',
    '  for (const shop of shops) {',
    `    const doc = await Shop.findOne(${filter});`,
    "    const tags = doc.tags.filter((tag) => tag !== 'legacy');",
    '    await Shop.updateOne({ _id: shop._id }, { $set: { tags } });',
    '  }',
    '}',
  );

/** Stock taken off the product of `ids[i]` picked from the list, then saved. */
const allocate = (list: string, change: string) =>
  lines(
    "import Product from '../models/product';",
    'export async function onOrder(ids: string[], counts: number[]) {',
    `  const products = ${list};`,
    '  for (let i = 0; i < ids.length; i++) {',
    '    const product = products.find((p) => p.id === ids[i]);',
    '    if (!product) continue;',
    `    ${change};`,
    '    await product.save();',
    '  }',
    '}',
  );

/** One product read by id, its stock taken off through a non-null assertion, then saved. */
const takeStock = (change: string) =>
  lines(
    "import Product from '../models/product';",
    'export async function onOrder(id: string, count: number) {',
    '  const product = await Product.findById(id);',
    `  ${change};`,
    '  await product!.save();',
    '}',
  );

ruleTester.run('no-read-then-write (documents of a list read, non-null changes)', rule, {
  valid: [
    // Each document is given a value of no field of its own.
    streaks('User.find()', 'user.streak = 1'),
    streaks('User.find({ active: true })', 'user.lastReset = new Date()'),
    // The tags of the shop's template, another document, copied to the listed shop.
    retag('{ _id: shop.templateId }'),
    // The array's own `find` over values read from no database.
    allocate('await loadCatalogue()', 'product.quantity! -= counts[i]'),
    allocate('cart.items', 'product.quantity -= counts[i]'),
  ],
  invalid: [
    { code: streaks('User.find()', 'user.streak = user.streak + 1'), errors: [error('mongoose', 'streak', 6, 16)] },
    { code: streaks('User.find({ claimed: true })', 'user.daily.streak += 1'), errors: [error('mongoose', 'streak', 6, 16)] },
    {
      code: allocate('await Product.find({ _id: { $in: ids } })', 'product.quantity! -= counts[i]'),
      errors: [error('mongoose', 'quantity', 8, 19)],
    },
    {
      code: allocate('await Product.find({ _id: { $in: ids } })', 'product.quantity -= counts[i]'),
      errors: [error('mongoose', 'quantity', 8, 19)],
    },
    // The listed shop's own document read again by its key: its tags rewritten in place.
    { code: retag('{ _id: shop._id }'), errors: [error('mongoose', 'tags', 7, 16)] },
    { code: retag('{ _id: shop._id, active: true }'), errors: [error('mongoose', 'tags', 7, 16)] },
    { code: takeStock('product!.quantity! -= count'), errors: [error('mongoose', 'quantity', 5, 18)] },
    { code: takeStock('product!.quantity -= count'), errors: [error('mongoose', 'quantity', 5, 18)] },
  ],
});
