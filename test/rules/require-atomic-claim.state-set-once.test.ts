// A row's state compared with the very value the code then sets it to, so that the work between
// runs once: two deliveries (or replicas) both read it unset, both set it and both do the work. A
// check of another state, then a set with work on its path, is a transition made twice (reported too).
// Reported on the read; when the state is assigned on the row and the row saved after a check that
// leaves (`if (coupon.status === 'used') return; coupon.status = 'used'; await coupon.save()`), on
// the save. Not reported: a check of another state with no work but the move (a transition validated), the set in a callback
// run later or in a failure path, a conditional set whose row count is used, the row's save inside
// an `if (row.state !== V) { … }` block (as often a row the request made, marked on its failure path).
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A refund webhook: the refund row is read by its reference, then `body` runs. */
const webhook = (...body: string[]) =>
  lines(
    'export class RefundService {',
    '  constructor(private readonly refunds: Repository<Refund>, private readonly wallets: WalletService) {}',
    '  async onSettled(reference: string) {',
    '    const refund = await this.refunds.findOne({ where: { reference } });',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );

/** A coupon redeemed by its token: the row read on line 3, then `body`. */
const redeem = (...body: string[]) =>
  lines(
    "const Coupon = require('../models/coupon');",
    'module.exports = async function redeem(req, res) {',
    '  const coupon = await Coupon.findOne({ token: req.params.token });',
    '  if (!coupon) return res.status(404).end();',
    ...body.map((l) => `  ${l}`),
    '  res.json({ discount: coupon.discount });',
    '};',
  );

const flagged = (code: string) => ({
  code,
  errors: [{ messageId: 'checkedFlagClaim' as const, data: { column: 'status' }, line: 4, column: 39 }],
});

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
  invalid: [
    // another state checked, then moved with work on its path (require-atomic-claim.transitions.test.ts): both deliveries credit
    flagged(
      webhook(
        "if (refund.status !== 'requested') throw new Error('not requested');",
        "await this.refunds.update(refund.id, { status: 'settled' });",
        'await this.wallets.credit(refund.userId, refund.amount);',
      ),
    ),
    {
      code: redeem("if (coupon.status === 'used') return res.status(409).end();", "coupon.status = 'used';", 'await coupon.save();'),
      errors: [{ messageId: 'checkedFlagClaim' as const, data: { column: 'status' }, line: 7, column: 16 }],
    },
    {
      code: redeem(
        "if (coupon.status === 'used') throw new Error('used');",
        "coupon.status = 'used';",
        'coupon.usedAt = new Date();',
        'await coupon.save();',
      ),
      errors: [{ messageId: 'checkedFlagClaim' as const, data: { column: 'status' }, line: 8, column: 16 }],
    },
    flagged(
      webhook(
        'if (refund && refund.status !== RefundStatus.settled) {',
        '  await this.refunds.update(refund.id, { status: RefundStatus.settled });',
        '  await this.wallets.credit(refund.userId, refund.amount);',
        '}',
      ),
    ),
    flagged(
      webhook(
        "if (refund.status === 'settled') return;",
        "await this.refunds.update(refund.id, { status: 'settled', settledAt: new Date() });",
        'await this.wallets.credit(refund.userId, refund.amount);',
      ),
    ),
  ],
});
