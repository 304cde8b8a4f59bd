// no-read-then-write when the largest stored number plus one is put in row objects pushed onto a
// local list, and the list is written: each element created by a callback over it, or the whole
// list handed to `createMany`. Not reported: the list only returned, the rows written under a
// transaction lock, a number not made from a maximum.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

/** Sprints planned after a board's last one: `start` is how the first number is made, `write` what is done with the rows. */
const sprints = (write: string, start = '(last?.seq ?? 0) + 1') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function planSprints(boardId: string, count: number) {',
    "  const last = await prisma.sprint.findFirst({ where: { boardId }, orderBy: { seq: 'desc' } });",
    `  let seq = ${start};`,
    '  const rows = [];',
    '  for (let i = 0; i < count; i++) {',
    '    rows.push({ boardId, seq, title: `Sprint ${seq}` });',
    '    seq++;',
    '  }',
    `  ${write}`,
    '}',
    'export async function renameSprint(id: string, title: string) {',
    '  await prisma.sprint.update({ where: { id }, data: { title } });',
    '}',
  );

ruleTester.run('no-read-then-write (a largest-plus-one pushed in rows)', rule, {
  valid: [
    // the rows only returned: nothing written here
    sprints('return rows;'),
    // a number not made from a maximum
    sprints('return prisma.$transaction(rows.map((row) => prisma.sprint.create({ data: row })));', 'count + 1'),
    // under a transaction lock
    sprints(
      'return prisma.$transaction(async (tx) => {\n    await tx.$executeRaw`SELECT pg_advisory_xact_lock(1)`;\n    return tx.sprint.createMany({ data: rows });\n  });',
    ),
  ],
  invalid: [
    { code: sprints('return prisma.$transaction(rows.map((row) => prisma.sprint.create({ data: row })));'), errors: [error('seq', 5, 13)] },
    { code: sprints('return prisma.sprint.createMany({ data: rows });'), errors: [error('seq', 5, 13)] },
  ],
});
