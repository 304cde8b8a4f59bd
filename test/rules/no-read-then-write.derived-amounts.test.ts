// no-read-then-write when the amount an atomic change adds was computed from the value read of the
// same field (`free = Math.min(cost, LIMIT - usage.used)` then `$inc: { used: free }`, Prisma
// `{ decrement: Math.min(amount, wallet.balance) }`): the bound is applied to the value read, so two
// requests both take the same room under it and together cross it. Not reported: the bound in the
// write's filter, an amount computed from another field, an amount computed from no read.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A month's usage read, `amount` computed on line 6, then `$inc` on line 7 with `filter`. */
const consume = (amount: string, filter = '{ _id: usage._id }') =>
  lines(
    "import mongoose from 'mongoose';",
    "const Usage = mongoose.model('Usage');",
    'export async function consume(userId, cost) {',
    '  const usage = await Usage.findOne({ userId });',
    '  const LIMIT = 100;',
    `  const free = ${amount};`,
    `  await Usage.updateOne(${filter}, { $inc: { used: free } });`,
    '}',
  );

/** A Prisma wallet read, then a decrement by `amount` (line 6). */
const drain = (amount: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function drain(userId, amount) {',
    '  const wallet = await prisma.wallet.findUnique({ where: { userId } });',
    '  if (!wallet) return;',
    `  await prisma.wallet.update({ where: { userId }, data: { balance: { decrement: ${amount} } } });`,
    '}',
  );

const checked = (field: string, line: number, column: number) => [
  { messageId: 'checkedThenChanged' as const, data: { field }, line, column },
];

ruleTester.run('no-read-then-write (amounts computed from the value read)', noReadThenWrite, {
  valid: [
    // the bound in the write's filter
    consume('Math.min(cost, Math.max(0, LIMIT - usage.used))', '{ _id: usage._id, used: { $lte: LIMIT - cost } }'),
    // an amount computed from another field of the row
    consume('Math.min(cost, usage.credits)'),
    // an amount computed from no read
    consume('Math.min(cost, LIMIT)'),
    drain('Math.min(amount, 100)'),
  ],
  invalid: [
    { code: consume('Math.min(cost, Math.max(0, LIMIT - usage.used))'), errors: checked('used', 7, 15) },
    { code: consume('LIMIT - usage.used'), errors: checked('used', 7, 15) },
    { code: drain('Math.min(amount, wallet.balance)'), errors: checked('balance', 6, 23) },
  ],
});
