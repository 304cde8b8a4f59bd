// A row's state compared with the very value the code then sets it to, so that the work between
// runs once: two deliveries (or replicas) both read it unset, both set it and both do the work. A
// check of another state, then a set with work on its path, is a transition made twice (reported too).
// On a row read by its key and moved by an ORM write, that is no-read-then-write's finding
// (checkedStateChanged; the cases moved to read-write/checked-transitions.ts). Not reported: a check of another state with no work but the move (a transition validated), the set in a callback
// run later or in a failure path, a conditional set whose row count is used, the row's save inside
// an `if (row.state !== V) { … }` block (as often a row the request made, marked on its failure path).
import { ruleTester } from './rule-tester.js';
import { webhook, redeem } from './read-write/checked-transitions.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

ruleTester.run('require-atomic-claim: a state compared with the value then set', rule, {
  valid: [
    // another state checked and nothing done but the state moved: a transition validated, not a run made once
    webhook(
      "if (refund.status !== 'requested') throw new Error('not requested');",
      "await this.refunds.update(refund.id, { status: 'settled' });",
    ),
    // the set made later, in a callback, or on a failure path
    webhook(
      "if (refund.status === 'settled') return;",
      'try {',
      '  await this.wallets.credit(refund.userId, refund.amount);',
      '} catch (error) {',
      "  await this.refunds.update(refund.id, { status: 'settled' });",
      '}',
    ),
    // one conditional statement whose count decides
    webhook(
      'if (refund.status !== RefundStatus.settled) {',
      '  const { affected } = await this.refunds.update({ id: refund.id, status: RefundStatus.requested }, { status: RefundStatus.settled });',
      '  if (affected === 1) await this.wallets.credit(refund.userId, refund.amount);',
      '}',
    ),
    // the row saved with another state than the one checked
    redeem("if (coupon.status === 'used') return res.status(409).end();", "coupon.status = 'expired';", 'await coupon.save();'),
    // the row saved inside a block that checked the state is not yet set
    redeem("if (coupon.status !== 'used') {", "  coupon.status = 'used';", '  await coupon.save();', '}'),
  ],
  // The reported shapes (a row read by its key, its state set by an ORM write) moved to no-read-then-write
  // (read-write/checked-transitions.ts); require-atomic-claim.transitions.test.ts asserts this rule is quiet on them.
  invalid: [],
});
