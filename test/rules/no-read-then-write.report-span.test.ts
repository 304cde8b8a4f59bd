// no-read-then-write: where the report sits. A value computed from the read more than three lines
// above the write that sends it is reported from that computation down to the write, so the line
// where the lost update starts and the line that sends it are both inside the report; a value
// computed next to the write is reported at the write alone. A largest-plus-one sent by a write
// further down spans to that write the same way.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** Fees read, the new totals computed on line 5, then `gap` lines, then the update. */
const pay = (gap: number) =>
  lines(
    "import mongoose from 'mongoose';",
    "const Fees = mongoose.model('Fees');",
    'export async function pay(studentId, amount) {',
    '  const fees = await Fees.findOne({ studentId });',
    '  const paidFees = fees.paidFees + amount;',
    ...Array.from({ length: gap }, (_, i) => `  console.log('step ${i}');`),
    '  await Fees.updateOne({ studentId }, { $set: { paidFees } });',
    '}',
  );

/** A version number: the latest row's plus one on line 5, then `gap` lines, then the create. */
const publish = (gap: number) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function publish(gameId, digest) {',
    '  const latest = await prisma.gameVersion.findFirst({ where: { gameId }, orderBy: { version: "desc" } });',
    '  const version = latest ? latest.version + 1 : 1;',
    ...Array.from({ length: gap }, (_, i) => `  console.log('step ${i}');`),
    '  return prisma.gameVersion.create({ data: { gameId, version, digest } });',
    '}',
    'export async function rename(id, title) {',
    '  await prisma.gameVersion.update({ where: { id }, data: { title } });',
    '}',
  );

ruleTester.run('no-read-then-write (report span)', noReadThenWrite, {
  valid: [],
  invalid: [
    // computed five lines above the write: the report starts at the computation and ends at the write
    {
      code: pay(4),
      errors: [{ messageId: 'mongoose', data: { field: 'paidFees' }, line: 5, column: 20, endLine: 10, endColumn: 23 }],
    },
    // computed just above the write: the report is the write's own
    {
      code: pay(1),
      errors: [{ messageId: 'mongoose', data: { field: 'paidFees' }, line: 7, column: 14, endLine: 7, endColumn: 23 }],
    },
    // the largest plus one, created five lines below: the report runs from the `+ 1` to the create
    {
      code: publish(4),
      errors: [{ messageId: 'nextFromHighest', data: { field: 'version' }, line: 5, column: 28, endLine: 10, endColumn: 35 }],
    },
    // created on the next line: the report is the `+ 1` alone
    {
      code: publish(0),
      errors: [{ messageId: 'nextFromHighest', data: { field: 'version' }, line: 5, column: 28, endLine: 5, endColumn: 46 }],
    },
  ],
});
