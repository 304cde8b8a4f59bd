// require-atomic-claim on a record looked up to be used, and on a state moved inside a MongoDB
// transaction. Not reported: `findOne({ slug, state: 'enabled' })` with the slug the function was
// given, followed by a counter bumped in the database (a new row linked beside it), no state set; the read and the write of
// the row in one transaction's session (the caller's, or one a transaction is opened on). Reported:
// a worker's pick of queued rows (no key given), a record whose state the function then sets (a
// voucher redeemed) or that it stamps, a key read into a queue-like table, a session with no transaction.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A handler that looks up a gift card by `filter` and then does `after` with it. */
const giftCard = (filter: string, ...after: string[]) =>
  lines(
    "import { GiftCard, CardUse } from '../models';",
    'export const useGiftCard = async (slug: string, basketId: string) => {',
    `  const card = await GiftCard.findOne(${filter});`,
    "  if (!card) throw new Error('unknown card');",
    ...after.map((l) => `  ${l}`),
    '  return card;',
    '};',
  );

const BUMP = 'await GiftCard.updateOne({ _id: card._id }, { $inc: { timesUsed: 1 } });';
const LINK = 'await CardUse.create({ card: card._id, basketId, state: "open" });';

/** A settlement of one refund in `session`, opened by `open` (nothing: the caller's transaction). */
const refund = (params: string, open: string[], read: string, write: string) =>
  lines(
    "import mongoose from 'mongoose';",
    "import { Refund, Wallet } from '../models';",
    `export const settleRefund = async (${params}) => {`,
    ...open.map((l) => `  ${l}`),
    `  const refund = await ${read};`,
    '  if (!refund) return;',
    "  refund.state = 'settled';",
    `  await ${write};`,
    '  await Wallet.updateOne({ _id: refund.wallet }, { $inc: { balance: refund.amount } }, { session });',
    '};',
  );

const SESSION_READ = "Refund.findOne({ ticket, state: 'requested' }).session(session)";

ruleTester.run('require-atomic-claim (a record looked up to be used; a MongoDB transaction)', rule, {
  valid: [
    // The card the caller names, checked enabled, its use counted: no state moves on.
    giftCard("{ slug: slug.toLowerCase(), state: 'enabled' }", LINK, BUMP),
    giftCard("{ slug, state: 'enabled' }", BUMP),
    lines(
      'export async function openPoll(code: string) {',
      "  const poll = await prisma.poll.findFirst({ where: { code, status: 'open' } });",
      "  if (!poll) throw new Error('closed');",
      '  await prisma.poll.update({ where: { id: poll.id }, data: { views: { increment: 1 } } });',
      '  return poll;',
      '}',
    ),
    // The caller's transaction: the read and the write carry its session.
    refund('ticket: string, session: ClientSession', [], SESSION_READ, 'refund.save({ session })'),
    // A transaction opened on the session; the write's session given as an option.
    refund(
      'ticket: string',
      ['const session = await mongoose.startSession();', 'session.startTransaction();'],
      "Refund.findOne({ ticket, state: 'requested' }, null, { session })",
      "Refund.updateOne({ _id: refund._id }, { $set: { state: 'settled' } }, { session })",
    ),
  ],
  invalid: [
    // The state is moved on: a voucher redeemed, two callers both redeem it.
    claim(
      giftCard("{ slug, state: 'enabled' }", BUMP, "await GiftCard.updateOne({ _id: card._id }, { $set: { state: 'spent' } });"),
      'findOne',
      'state',
      'GiftCard.updateOne(',
    ),
    claim(giftCard("{ slug, state: 'enabled' }", "card.state = 'spent';", 'await card.save();'), 'findOne', 'state', 'card.save('),
    // The state set as a plain field of the update (Mongoose's implicit `$set`).
    claim(
      giftCard("{ slug, state: 'enabled' }", "await GiftCard.updateOne({ _id: card._id }, { state: 'spent', spentOn: basketId });"),
      'findOne',
      'state',
      'GiftCard.updateOne(',
    ),
    // Stamped with a constant: a mark, not a count.
    claim(
      giftCard("{ slug, state: 'enabled' }", 'await GiftCard.updateOne({ _id: card._id }, { lastUsedAt: new Date() });'),
      'findOne',
      'state',
      'GiftCard.updateOne(',
    ),
    // No key given: a worker's pick of the next queued card.
    claim(giftCard("{ state: 'queued' }", BUMP), 'findOne', 'state', 'GiftCard.updateOne('),
    // A queue-like table holds work, whatever the key.
    claim(
      lines(
        'export async function nextExport(region: string) {',
        "  const task = await exportTasks.findOne({ region, state: 'waiting' });",
        '  await renderExport(task);',
        '  await exportTasks.updateOne({ _id: task._id }, { $inc: { tries: 1 } });',
        '}',
      ),
      'findOne',
      'state',
      'exportTasks.updateOne(',
    ),
    // A session with no transaction opened on it orders reads and claims nothing.
    claim(
      refund('ticket: string', ['const session = await mongoose.startSession();'], SESSION_READ, 'refund.save({ session })'),
      'findOne',
      'state',
      'refund.save(',
    ),
    // The write outside the session.
    claim(refund('ticket: string, session: ClientSession', [], SESSION_READ, 'refund.save()'), 'findOne', 'state', 'refund.save('),
  ],
});
