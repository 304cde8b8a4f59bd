// require-atomic-claim when the pending document (or instance) writes itself: `item.status =
// 'sent'; await item.save()`, `await item.remove()`, a Sequelize `instance.destroy()` or
// `instance.update({ status })` — the row read, whatever its name, not a model named `item`, so no
// other table. Not reported: another model's row keyed by the document (`Invoice.updateOne({ orderId:
// item._id }, …)`), a related row written through the document (`item.customer.update(…)`), a new
// document of another model saved (`receipt.save()` names no row read), a save made under a
// conditional claim.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A Mongoose worker over pending orders: `read` loads them, `mark` is what it does to each after charging it. */
const orders = (mark: string, read = "const due = await Order.find({ status: 'pending' });") =>
  lines(
    "import { Order, Invoice, Receipt } from '../models';",
    'export async function chargeOrders() {',
    `  ${read}`,
    '  for (const item of due) {',
    '    await charge(item.total);',
    `    ${mark}`,
    '  }',
    '}',
  );

/** One pending order picked, charged and marked with `mark`. */
const oneOrder = (mark: string) =>
  lines(
    "import { Order } from '../models';",
    'export async function chargeNext() {',
    "  const next = await Order.findOne({ status: 'pending' }).sort({ createdAt: 1 });",
    '  if (!next) return;',
    '  await charge(item.total);',
    `  ${mark}`,
    '}',
  );

ruleTester.run('require-atomic-claim (a pending document that writes itself)', rule, {
  valid: [
    // Another model's row keyed by the order: not the row read.
    orders("await Invoice.updateOne({ orderId: item._id }, { $set: { status: 'sent' } });"),
    // A related row written through the order: another table's row.
    orders("await item.customer.update({ status: 'billed' });", "const due = await Order.findAll({ where: { status: 'pending' } });"),
    // A new document of another model: it names no row read.
    orders("const receipt = new Receipt({ total: 1, state: 'paid' });\n    await receipt.save();"),
    // Claimed first by a conditional update whose count decides.
    orders(
      "const { modifiedCount } = await Order.updateOne({ _id: item._id, status: 'pending' }, { $set: { status: 'charging' } });\n    if (modifiedCount !== 1) continue;\n    item.paidAt = new Date();\n    await item.save();",
    ),
  ],
  invalid: [
    claim(orders("item.status = 'charged';\n    await item.save();"), 'find', 'status', 'item.save('),
    claim(orders('await item.remove();'), 'find', 'status', 'item.remove('),
    claim(oneOrder("next.status = 'charged';\n  await next.save();"), 'findOne', 'status', 'next.save('),
    claim(
      orders('await item.destroy({ force: true });', "const due = await Order.findAll({ where: { status: 'pending' } });"),
      'findAll',
      'status',
      'item.destroy(',
    ),
    // A Sequelize instance moved on by its own `update`, in the loop and for the one row picked.
    claim(
      orders("await item.update({ status: 'charged' });", "const due = await Order.findAll({ where: { status: 'pending' } });"),
      'findAll',
      'status',
      'item.update(',
    ),
    claim(oneOrder("await next.update({ status: 'charged', chargedAt: new Date() });"), 'findOne', 'status', 'next.update('),
  ],
});
