// require-atomic-claim on a request acting on the caller's own rows, the owner named by a reference
// field of the user itself (`{ user: userId }`, as MongoDB schemas name it): the pending order a
// request merges into is that user's, not a queue other replicas drain. Reported: the same read
// with the user from a constant (a shared queue).
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** An Express handler merging the cart into the pending basket of `owner` (an expression over `req`). */
const mergeBasket = (owner: string, key = 'user') =>
  lines(
    "const Basket = require('../models/basket');",
    'exports.addToBasket = async (req, res) => {',
    `  const owner = ${owner};`,
    `  const basket = await Basket.findOne({ ${key}: owner, status: 'Pending' });`,
    '  if (basket) {',
    '    for (const line of req.body.lines) basket.lines.push(line);',
    "    await Basket.updateOne({ _id: basket._id }, { $set: { status: 'Pending', note: req.body.note } });",
    '    await basket.save();',
    '  }',
    '  res.json(basket);',
    '};',
  );

ruleTester.run('require-atomic-claim (the caller owns the rows)', rule, {
  valid: [mergeBasket('req.userId'), mergeBasket('req.user.id', 'owner')],
  invalid: [claim(mergeBasket("'system'"), 'findOne', 'status', 'Basket.updateOne(')],
});
