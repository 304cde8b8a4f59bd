// no-read-then-write when a read's filter carries a bound (`free: { gt: 0 }`), the row's absence is
// checked (`if (!pool) throw`) and the field is then changed in the database without the bound:
// two requests both find the last unit and both take it. Reported: a floor in the read before a
// decrement (Prisma, also in a transaction callback without a row lock; MongoDB `$gt` before a
// negative `$inc`), a ceiling before an increment. Not reported: the bound in the write's filter, a
// read whose filter has no bound, a change in the direction that cannot cross it, a check that
// does not leave.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A ticket pool read by `read`, checked by `check`, then `change` sent in `where` (the write on line 8). */
const book = (read: string, change: string, where = '{ id: pool.id }', check = "if (!pool) throw new Error('sold out');") =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function holdSeat(concertId: string, buyer: string) {',
    '  return prisma.$transaction(async (tx) => {',
    `    const pool = await tx.ticketPool.findFirst({ where: ${read} });`,
    `    ${check}`,
    '    await tx.ticket.create({ data: { concertId, buyer, poolId: pool.id } });',
    `    return tx.ticketPool.update({ where: ${where}, data: ${change} });`,
    '  });',
    '}',
  );

/** A MongoDB coupon batch read by `filter`, checked missing, then `$inc` sent (line 5). */
const redeem = (filter: string, inc: string) =>
  lines(
    "const Batch = require('../models/batch');",
    'async function redeem(code) {',
    `  const batch = await Batch.findOne(${filter});`,
    '  if (batch === null) return false;',
    `  await Batch.updateOne({ _id: batch._id }, { $inc: ${inc} });`,
    '  return true;',
    '}',
    'module.exports = redeem;',
  );

const DECREMENT = '{ left: { decrement: 1 } }';

ruleTester.run('no-read-then-write (bounds in the read filter)', rule, {
  valid: [
    // the bound carried by the write's filter too
    book('{ concertId, left: { gt: 0 } }', DECREMENT, '{ id: pool.id, left: { gt: 0 } }'),
    // no bound in the read
    book('{ concertId }', DECREMENT),
    // a change that cannot cross a floor
    book('{ concertId, left: { gt: 0 } }', '{ left: { increment: 1 } }'),
    // the absence tested without leaving
    book('{ concertId, left: { gt: 0 } }', DECREMENT, '{ id: pool.id }', "if (!pool) console.warn('sold out');"),
    // MongoDB: a ceiling before a decrement
    redeem('{ code, used: { $lt: 100 } }', '{ used: -1 }'),
  ],
  invalid: [
    {
      code: book('{ concertId, left: { gt: 0 } }', DECREMENT),
      errors: [{ messageId: 'checkedThenChanged', data: { field: 'left' }, line: 8, column: 26 }],
    },
    {
      code: book('{ concertId, left: { gte: 1 } }', '{ left: { decrement: 1 }, soldOutAt: null }'),
      errors: [{ messageId: 'checkedThenChanged', data: { field: 'left' }, line: 8, column: 26 }],
    },
    {
      code: redeem('{ code, left: { $gt: 0 } }', '{ left: -1 }'),
      errors: [{ messageId: 'checkedThenChanged', data: { field: 'left' }, line: 5, column: 15 }],
    },
    {
      code: redeem('{ code, used: { $lt: 100 } }', '{ used: 1 }'),
      errors: [{ messageId: 'checkedThenChanged', data: { field: 'used' }, line: 5, column: 15 }],
    },
  ],
});
