// no-read-then-write when a bound is checked on the value read and the field is then changed in
// the database without it (`if (wallet.balance < amount) throw` then `{ decrement: amount }`):
// two requests both pass the check and together cross the bound. Reported: a floor before a
// decrement, a ceiling before an increment (Prisma, MongoDB `$inc`), also inside an interactive
// transaction. Not reported: the bound in the write's filter (also in a conditional spread part), a
// write that moves the row out of the state it filters on, a change that cannot cross the bound
// checked, a check that does not leave, a read that locks its row, another row written.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A Prisma wallet read by `userId`, the balance checked by `check`, then the write `update`. */
const spend = (check: string, update: string, read = 'prisma.wallet.findUnique({ where: { userId } })') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function spend(userId, amount) {',
    `  const wallet = await ${read};`,
    `  ${check}`,
    `  return prisma.wallet.${update};`,
    '}',
  );

const LOW = "if (!wallet || wallet.balance < amount) throw new Error('insufficient');";
const DECREMENT = 'update({ where: { userId }, data: { balance: { decrement: amount } } })';

/** A MongoDB usage log checked against a per-user maximum, then incremented. */
const redeem = (check: string, inc: string) =>
  lines(
    'export async function redeem(collections, couponId, accountId, max) {',
    '  const { CouponLogs } = collections;',
    '  const log = await CouponLogs.findOne({ couponId, accountId });',
    '  if (!log) return;',
    `  ${check}`,
    `  await CouponLogs.findOneAndUpdate({ _id: log._id }, { $inc: { usedCount: ${inc} } });`,
    '}',
  );

/** A Prisma pass read by id, its use count checked against a maximum, then `write` in the `tx` of a transaction. */
const consume = (write: string) =>
  lines(
    'export async function consume(tx, code) {',
    '  const pass = await tx.visitorPass.findFirst({ where: { code } });',
    "  if (pass.maxUses && pass.usedCount >= pass.maxUses) throw new Error('exhausted');",
    `  const done = await tx.visitorPass.${write};`,
    "  if (done.count === 0) throw new Error('exhausted');",
    '}',
  );

const error = (field: string, line: number, column: number) => ({ messageId: 'checkedThenChanged', data: { field }, line, column });

ruleTester.run('no-read-then-write (a bound checked on the value read)', rule, {
  valid: [
    // the bound is in the write's filter
    spend(LOW, 'updateMany({ where: { userId, balance: { gte: amount } }, data: { balance: { decrement: amount } } })'),
    // a floor checked, then the balance raised: the floor cannot be crossed
    spend(LOW, 'update({ where: { userId }, data: { balance: { increment: amount } } })'),
    // a check that does not leave
    spend("if (wallet.balance < amount) console.warn('low');", DECREMENT),
    // the transaction locks the row first (SELECT … FOR UPDATE by the key the read filters on)
    lines(
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function spend(userId, amount) {',
      '  return prisma.$transaction(async (tx) => {',
      '    await tx.$queryRaw`SELECT id FROM "Wallet" WHERE "userId" = ${userId} FOR UPDATE`;',
      '    const wallet = await tx.wallet.findUnique({ where: { userId } });',
      `    ${LOW}`,
      `    return tx.wallet.${DECREMENT};`,
      '  });',
      '}',
    ),
    // another row is written: the check was on the payer, the credit goes to the payee
    spend(LOW, 'update({ where: { userId: payeeId }, data: { balance: { decrement: amount } } })'),
    // a ceiling checked, then the count lowered
    redeem("if (log.usedCount >= max) throw new Error('used up');", '-1'),
    // the count checked, but the check is not a bound that leaves
    redeem('if (log.usedCount >= max) log.flagged = true;', '1'),
    // the bound in a spread part of the filter, present whenever there is a maximum
    consume(
      'updateMany({ where: { id: pass.id, ...(pass.maxUses != null ? { usedCount: { lt: pass.maxUses } } : {}) }, data: { usedCount: { increment: 1 } } })',
    ),
    consume(
      'updateMany({ where: { id: pass.id, ...(pass.maxUses && { usedCount: { lt: pass.maxUses } }) }, data: { usedCount: { increment: 1 } } })',
    ),
    // the write moves the pass out of the state it filters on: one of the racing requests passes
    consume('updateMany({ where: { id: pass.id, isUsed: false }, data: { isUsed: true, usedCount: { increment: 1 } } })'),
    lines(
      'export async function redeem(CouponLogs, couponId, max) {',
      '  const log = await CouponLogs.findOne({ couponId });',
      "  if (log.usedCount >= max) throw new Error('used up');",
      "  await CouponLogs.updateOne({ _id: log._id, state: 'open' }, { $set: { state: 'redeemed' }, $inc: { usedCount: 1 } });",
      '}',
    ),
  ],
  invalid: [
    // a floor, then a decrement without the bound
    { code: spend(LOW, DECREMENT), errors: [error('balance', 6, 24)] },
    // the same with `balance - amount < 0` and a negative increment
    {
      code: spend(
        "if (wallet.balance - amount < 0) throw new Error('insufficient');",
        'update({ where: { id: wallet.id }, data: { balance: { increment: -amount } } })',
      ),
      errors: [error('balance', 6, 24)],
    },
    // inside an interactive transaction (READ COMMITTED): both transactions read the same balance
    {
      code: lines(
        "import { PrismaClient } from '@prisma/client';",
        'const prisma = new PrismaClient();',
        'export async function payout(ownerId, amountCents) {',
        '  return prisma.$transaction(async (tx) => {',
        '    const wallet = await tx.wallet.findFirst({ where: { ownerId } });',
        "    if (wallet.balance < amountCents) throw new Error('insufficient_balance');",
        '    await tx.wallet.update({ where: { id: wallet.id }, data: { balance: { decrement: amountCents } } });',
        '    return tx.ledger.create({ data: { walletId: wallet.id, amount: -amountCents } });',
        '  });',
        '}',
      ),
      errors: [error('balance', 7, 21)],
    },
    // a ceiling, then `$inc` up without the bound (the check leaves after a roll-back call)
    {
      code: redeem("if (max > 0 && log.usedCount >= max) { await rollback(); throw new Error('used up'); }", '1'),
      errors: [error('usedCount', 6, 20)],
    },
    // a spread part of the filter that names another field carries no bound
    {
      code: consume(
        'updateMany({ where: { id: pass.id, ...(pass.branchId ? { branchId: pass.branchId } : {}) }, data: { usedCount: { increment: 1 } } })',
      ),
      errors: [error('usedCount', 4, 37)],
    },
    // a field pinned to the value the write sets again is no transition
    {
      code: consume('updateMany({ where: { id: pass.id, isActive: true }, data: { isActive: true, usedCount: { increment: 1 } } })'),
      errors: [error('usedCount', 4, 37)],
    },
  ],
});
