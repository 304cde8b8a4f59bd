// A project repository's own `update({ id, points: user.points + n })` — the key and the values in
// one object — writes back a value computed from a read like TypeORM's `update(id, { … })` does.
// Not reported: values that come from no read, an object without a key, a second argument.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const service = (...body: string[]) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { UserRepository } from './user.repository';",
    '@Injectable()',
    'export class UserService {',
    '  constructor(private readonly users: UserRepository) {}',
    '  async grant(id: number, points: number) {',
    '    const user = await this.users.findOne(id);',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );
const lost = (line: number, column: number, field = 'points') => ({ messageId: 'typeorm', data: { field }, line, column });

ruleTester.run('no-read-then-write: a repository update keyed in its values', rule, {
  valid: [
    service('await this.users.update({ id, name: user.name.trim() === "" ? "anonymous" : "named" });'),
    service('await this.users.update({ id, points });'),
    service('await this.users.update({ points: user.points + points });'),
    service('await this.users.update({ id: user.id, lastSeen: new Date() });'),
  ],
  invalid: [
    { code: service('await this.users.update({ id, points: user.points + points });'), errors: [lost(8, 22)] },
    { code: service('await this.users.update({ id: user.id, points: user.points - points, active: true });'), errors: [lost(8, 22)] },
    { code: service('const next = user.points + points;', 'await this.users.update({ _id: id, points: next });'), errors: [lost(9, 22)] },
  ],
});

// A field computed only from other fields of the row read (a commission from the amount) is the
// same whichever replica writes it; a field whose value reads its own column (`to.balance` among
// the terms) is a lost update. A conditional spread's fields are known fields.
const PRISMA = ["import { PrismaClient } from '@prisma/client';", 'const prisma = new PrismaClient();'];
const settle = (...data: string[]) =>
  lines(
    ...PRISMA,
    'export async function settle(id: string, rate: number) {',
    '  const due = await prisma.instalment.findUnique({ where: { id } });',
    '  const commission = Math.round((due.amount * rate) / 100);',
    `  await prisma.instalment.update({ where: { id }, data: { status: 'PAID', ${data.join(', ')} } });`,
    '}',
  );

ruleTester.run('no-read-then-write: fields computed from other fields', rule, {
  valid: [
    settle('commission', 'net: due.amount - commission'),
    settle('...(rate > 0 && { commission, net: due.amount - commission })'),
    settle("...(rate > 0 ? { commission } : { note: 'none' })"),
  ],
  invalid: [
    { code: settle('amount: due.amount - commission'), errors: [{ messageId: 'prisma', data: { field: 'amount' }, line: 6, column: 27 }] },
    {
      code: settle('...(rate > 0 && { amount: due.amount - commission })'),
      errors: [{ messageId: 'prisma', data: { field: 'amount' }, line: 6, column: 27 }],
    },
  ],
});
