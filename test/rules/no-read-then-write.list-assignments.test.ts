// no-read-then-write when a loaded document's list is made into a new list and assigned back to its
// field, then the document saved: `wallet.coupons = wallet.coupons.filter(…)` (or through a `const`)
// and `await wallet.save()` sends the whole list, over an element another request added since the
// load. Not reported: the new list put in another field, the field given a list made from the
// request, a value passed through (`label.trim()`), a list assigned and never saved.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A Mongoose helper that drops used coupons: `body` between the read and the end. */
const coupons = (...body: string[]) =>
  lines(
    "import { Wallet } from '../models/wallet';",
    'export async function dropUsed(ownerId: string, used: string[]) {',
    '  const wallet = await Wallet.findOne({ ownerId });',
    '  if (!wallet) return;',
    ...body.map((l) => `  ${l}`),
    '}',
  );

ruleTester.run('no-read-then-write (a list assigned back and saved)', rule, {
  valid: [
    // another field takes the new list
    coupons('wallet.spent = wallet.coupons.filter((c) => used.includes(c.code));', 'await wallet.save();'),
    // a list made from the request, not from the field
    coupons('wallet.coupons = used.map((code) => ({ code }));', 'await wallet.save();'),
    // a value passed through, not a list made
    coupons('wallet.label = wallet.label.trim();', 'await wallet.save();'),
    // assigned, never saved
    coupons('wallet.coupons = wallet.coupons.filter((c) => !used.includes(c.code));', 'return wallet;'),
    // the database drops them
    coupons('await Wallet.updateOne({ ownerId }, { $pull: { coupons: { code: { $in: used } } } });'),
  ],
  invalid: [
    {
      code: coupons('wallet.coupons = wallet.coupons.filter((c) => !used.includes(c.code));', 'await wallet.save();'),
      errors: [error('sequelize', 'coupons', 6, 16)],
    },
    {
      code: coupons('const kept = wallet.coupons.filter((c) => !used.includes(c.code));', 'wallet.coupons = kept;', 'await wallet.save();'),
      errors: [error('sequelize', 'coupons', 7, 16)],
    },
  ],
});
