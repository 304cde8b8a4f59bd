// A state checked on a row read by its key, then moved by an ORM write (a transition, or the very
// state checked set once): the cases require-atomic-claim reported as `checkedFlagClaim` until this
// round, moved here deliberately — one report per race, by no-read-then-write (`checkedStateChanged`).
// require-atomic-claim.transitions.test.ts asserts that rule stays quiet on every one of them.
export const lines = (...l: string[]) => l.join('\n');

/** A shipment worker: the shipment read by its key on line 3, then `body`. */
export const ship = (...body: string[]) =>
  lines(
    "import { Shipment } from '../models/shipment.js';",
    'export async function dispatchShipment(id: string) {',
    '  const shipment = await Shipment.findByPk(id);',
    ...body.map((l) => `  ${l}`),
    '}',
  );

/** A refund webhook: the refund row read by its reference, then `body`. */
export const webhook = (...body: string[]) =>
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
export const redeem = (...body: string[]) =>
  lines(
    "const Coupon = require('../models/coupon');",
    'module.exports = async function redeem(req, res) {',
    '  const coupon = await Coupon.findOne({ token: req.params.token });',
    '  if (!coupon) return res.status(404).end();',
    ...body.map((l) => `  ${l}`),
    '  res.json({ discount: coupon.discount });',
    '};',
  );

const moved = (field: string, line: number, column: number) => ({
  messageId: 'checkedStateChanged' as const,
  data: { field },
  line,
  column,
});

export const movedTransitions = [
  // from require-atomic-claim.transitions.test.ts
  {
    code: ship(
      "if (shipment.status !== 'ready') return;",
      'await courier.book(shipment.address);',
      "await Shipment.update({ status: 'sent' }, { where: { id } });",
    ),
    errors: [moved('status', 6, 18)],
  },
  {
    code: ship(
      "if (!shipment || shipment.status !== 'ready') return;",
      "shipment.status = 'sent';",
      'await shipment.save();',
      'await courier.book(shipment.address);',
    ),
    errors: [moved('status', 6, 18)],
  },
  {
    code: ship(
      "if (shipment.status === 'ready') {",
      '  await courier.book(shipment.address);',
      "  await Shipment.update({ status: 'sent' }, { where: { id } });",
      '}',
    ),
    errors: [moved('status', 6, 20)],
  },
  {
    code: ship(
      "if (shipment.status !== 'ready') return;",
      "await fetch(hookUrl, { method: 'POST', body: JSON.stringify({ id }) });",
      "await Shipment.update({ status: 'sent' }, { where: { id } });",
    ),
    errors: [moved('status', 6, 18)],
  },
  {
    code: lines(
      'export async function dispatchShipment(prisma, id: string) {',
      '  const shipment = await prisma.shipment.findUnique({ where: { id } });',
      "  if (shipment?.status !== 'READY') return;",
      '  await courier.book(shipment.address);',
      "  await prisma.shipment.update({ where: { id }, data: { status: 'SENT' } });",
      '}',
    ),
    errors: [moved('status', 5, 25)],
  },
  // from require-atomic-claim.state-set-once.test.ts
  {
    code: webhook(
      "if (refund.status !== 'requested') throw new Error('not requested');",
      "await this.refunds.update(refund.id, { status: 'settled' });",
      'await this.wallets.credit(refund.userId, refund.amount);',
    ),
    errors: [moved('status', 6, 24)],
  },
  {
    code: redeem("if (coupon.status === 'used') return res.status(409).end();", "coupon.status = 'used';", 'await coupon.save();'),
    errors: [moved('status', 7, 16)],
  },
  {
    code: redeem(
      "if (coupon.status === 'used') throw new Error('used');",
      "coupon.status = 'used';",
      'coupon.usedAt = new Date();',
      'await coupon.save();',
    ),
    errors: [moved('status', 8, 16)],
  },
  {
    code: webhook(
      'if (refund && refund.status !== RefundStatus.settled) {',
      '  await this.refunds.update(refund.id, { status: RefundStatus.settled });',
      '  await this.wallets.credit(refund.userId, refund.amount);',
      '}',
    ),
    errors: [moved('status', 6, 26)],
  },
  {
    code: webhook(
      "if (refund.status === 'settled') return;",
      "await this.refunds.update(refund.id, { status: 'settled', settledAt: new Date() });",
      'await this.wallets.credit(refund.userId, refund.amount);',
    ),
    errors: [moved('status', 6, 24)],
  },
];
