// no-read-then-write for a running total kept on each new ledger row: the newest row read (sorted
// newest first), then a new row inserted into the same model with the total changed in JavaScript.
// Not reported: the newest row read under a row lock, a total inserted into another model, a read
// not sorted newest first, or a value not derived from the row's own total.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A points ledger: the newest entry read with `readOptions`, a new entry created on `into` with `total`. */
const typeormLedger = (readOptions: string, total: string, into = 'this.entries') =>
  lines(
    "import { Repository } from 'typeorm';",
    'export class PointsLedger {',
    '  constructor(private readonly entries: Repository<PointsEntry>, private readonly archive: Repository<PointsEntry>) {}',
    '  async spend(memberId: number, points: number) {',
    `    const latest = await this.entries.findOne({ where: { memberId }${readOptions} });`,
    `    return this.entries.save(${into}.create({ memberId, change: -points, total: ${total} }));`,
    '  }',
    '}',
  );

/** The same with Prisma and a destructured total. */
const prismaLedger = (orderBy: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function earn(memberId: number, points: number) {',
    `  const { total } = await prisma.pointsEntry.findFirst({ where: { memberId }, orderBy: ${orderBy} });`,
    '  await prisma.pointsEntry.create({',
    '    data: { memberId, change: points, total: total + points },',
    '  });',
    '  await prisma.member.update({ where: { id: memberId }, data: { lastEarnedAt: new Date() } });',
    '}',
  );

ruleTester.run('no-read-then-write (running totals on ledger rows)', rule, {
  valid: [
    // the newest row read under a row lock in its transaction
    typeormLedger(", order: { id: 'DESC' }, lock: { mode: 'pessimistic_write' }", 'latest.total - points'),
    // inserted into another model
    typeormLedger(", order: { id: 'DESC' }", 'latest.total - points', 'this.archive'),
    // not sorted newest first: no running total
    typeormLedger('', 'latest.total - points'),
    // a value not derived from the row's own total
    typeormLedger(", order: { id: 'DESC' }", 'latest.change - points'),
    prismaLedger("{ createdAt: 'asc' }"),
  ],
  invalid: [
    {
      code: typeormLedger(", order: { id: 'DESC' }", 'latest.total - points'),
      errors: [{ messageId: 'typeorm', line: 6, column: 30 }],
    },
    { code: prismaLedger("{ createdAt: 'desc' }"), errors: [{ messageId: 'prisma', line: 5, column: 9, endLine: 6 }] },
  ],
});
