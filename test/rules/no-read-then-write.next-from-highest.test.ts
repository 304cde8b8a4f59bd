// no-read-then-write when a number is allocated as the largest stored value plus one: a read of
// the maximum (Prisma `findFirst` ordered descending or `aggregate({ _max })`, SQL `MAX(…)`,
// TypeORM `find` ordered `DESC`) or a helper named for it (`getMaxNumber`), then `+ 1` sent in a
// create, insert, update or save. Two requests or replicas read the same maximum and write the
// same number. Not reported: the allocation under a transaction lock or a row lock, a create that
// retries on the unique violation or ignores the conflict (`.onConflictDoNothing()` after its
// values), a row ordered by another column, a value only returned, a
// helper not named for a maximum, seed data.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const PRISMA = ["import { PrismaClient } from '@prisma/client';", 'const prisma = new PrismaClient();'];

/** An invoice numbered from the tenant's last one; `body` runs inside `openInvoice`. */
const invoice = (...body: string[]) =>
  lines(
    ...PRISMA,
    'export async function openInvoice(tenantId: string, amount: number) {',
    ...body.map((l) => `  ${l}`),
    '}',
    'export async function rename(id: string, title: string) {',
    '  await prisma.invoice.update({ where: { id }, data: { title } });',
    '}',
  );

const LAST = "const last = await prisma.invoice.findFirst({ where: { tenantId }, orderBy: { number: 'desc' } });";
const CREATE = 'return prisma.invoice.create({ data: { tenantId, amount, number: (last?.number ?? 0) + 1 } });';

/** Ticket numbers handed out from a holder `cache` fills once; `step` hands out the next one. */
const allocator = (fill: string, step: string) =>
  lines(
    ...PRISMA,
    'export class TicketNumbers {',
    '  private last?: number;',
    '  async next(): Promise<number> {',
    `    if (this.last === undefined) ${fill}`,
    `    return ${step};`,
    '  }',
    '  async close(id: string) {',
    "    await prisma.ticket.update({ where: { id }, data: { state: 'closed' } });",
    '  }',
    '}',
  );
const FILL = 'this.last = (await prisma.ticket.aggregate({ _max: { seq: true } }))._max.seq ?? 0;';

/** The same holder, filled in a method written after the one that hands numbers out. */
const FILL_LATER = lines(
  ...PRISMA,
  'export class TicketNumbers {',
  '  private last = 0;',
  '  next(): number {',
  '    return ++this.last;',
  '  }',
  '  async warm() {',
  `    ${FILL}`,
  '  }',
  '  async close(id: string) {',
  "    await prisma.ticket.update({ where: { id }, data: { state: 'closed' } });",
  '  }',
  '}',
);

const error = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

/** A review round numbered from the document's latest, inserted by Drizzle; `conflict` links after the values. */
const round = (conflict: string) =>
  lines(
    "import { desc, eq } from 'drizzle-orm';",
    "import { db } from './db';",
    "import { rounds } from './schema';",
    'export async function openRound(documentId: string) {',
    '  const latest = await db.select({ round: rounds.round }).from(rounds).where(eq(rounds.documentId, documentId)).orderBy(desc(rounds.round)).limit(1);',
    '  return db',
    '    .insert(rounds)',
    '    .values({ documentId, round: (latest[0]?.round ?? 0) + 1 })',
    `    ${conflict}`,
    '    .returning();',
    '}',
    'export async function close(id: string) {',
    '  await db.update(rounds).set({ closed: true }).where(eq(rounds.id, id));',
    '}',
  );

ruleTester.run('no-read-then-write (a number allocated as the largest stored plus one)', rule, {
  valid: [
    // the insert ignores the conflict on the numbered column, a link after its values
    round('.onConflictDoNothing({ target: [rounds.documentId, rounds.round] })'),
    // a transaction lock serialises the allocation
    invoice(
      'return prisma.$transaction(async (tx) => {',
      '  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${tenantId}))`;',
      `  ${LAST.replace('prisma.', 'tx.')}`,
      `  ${CREATE.replace('prisma.', 'tx.')}`,
      '});',
    ),
    // the create retries on the unique violation
    invoice(
      'for (let attempt = 0; attempt < 3; attempt++) {',
      '  try {',
      `    ${LAST}`,
      `    ${CREATE}`,
      '  } catch (error) {',
      "    if (error.code !== 'P2002') throw error;",
      '  }',
      '}',
    ),
    // the row is the latest by date, not the largest number
    invoice(LAST.replace("number: 'desc'", "createdAt: 'desc'"), CREATE),
    // the next number is only shown, never written
    invoice(LAST, 'return { preview: (last?.number ?? 0) + 1, amount };'),
    // a helper that is not named for a maximum
    lines(
      "import { TaskRepository } from './task.repository';",
      'export class TaskService {',
      '  constructor(private readonly tasks: TaskRepository) {}',
      '  async move(id: string, projectId: string) {',
      '    const open = await this.tasks.countOpen(projectId);',
      '    await this.tasks.update(id, { projectId, number: open + 1 });',
      '  }',
      '}',
    ),
    // a SQL maximum read under a row lock
    lines(
      "import { Pool } from 'pg';",
      'const pool = new Pool();',
      'export async function addTicket(client, projectId: string) {',
      "  const { rows } = await client.query('SELECT MAX(seq) AS max FROM tickets WHERE project_id = $1 FOR UPDATE', [projectId]);",
      "  await client.query('INSERT INTO tickets (project_id, seq) VALUES ($1, $2)', [projectId, rows[0].max + 1]);",
      '}',
    ),
    // a holder counting this process's own work, filled from no read
    allocator('this.last = 0;', '++this.last'),
    // seed data, filled once by one process
    { code: invoice(LAST, CREATE), filename: 'src/invoices/invoice.seed.ts' },
    // a field of that name filled from the maximum in another class is not this class's holder
    lines(
      ...PRISMA,
      'export class Warmer {',
      '  last = 0;',
      '  async warm() {',
      `    ${FILL}`,
      '  }',
      '}',
      'export class TicketNumbers {',
      '  private last = 0;',
      '  next(): number {',
      '    return ++this.last;',
      '  }',
      '  async close(id: string) {',
      "    await prisma.ticket.update({ where: { id }, data: { state: 'closed' } });",
      '  }',
      '}',
    ),
  ],
  invalid: [
    // the same insert with a link that settles no conflict
    { code: round('.$dynamic()'), errors: [error('round', 8, 34)] },
    // the largest stored number cached in the process, handed out plus one
    { code: allocator(FILL, '++this.last'), errors: [error('last', 7, 12)] },
    // …also when the holder is filled in a method written after the one that hands numbers out
    { code: FILL_LATER, errors: [error('last', 6, 12)] },
    // Prisma: the last invoice by number, plus one, in a create
    { code: invoice(LAST, CREATE), errors: [error('number', 5, 68)] },
    // Prisma: aggregate _max, kept in a name, sent by shorthand
    {
      code: invoice(
        'const agg = await prisma.invoice.aggregate({ where: { tenantId }, _max: { number: true } });',
        'const number = (agg._max.number ?? 0) + 1;',
        'return prisma.invoice.create({ data: { tenantId, amount, number } });',
      ),
      errors: [error('number', 5, 18)],
    },
    // SQL: MAX(seq) plus one as an INSERT parameter
    {
      code: lines(
        "import { Pool } from 'pg';",
        'const pool = new Pool();',
        'export async function addTicket(projectId: string, title: string) {',
        "  const { rows } = await pool.query('SELECT MAX(seq) AS max FROM tickets WHERE project_id = $1', [projectId]);",
        '  const seq = (rows[0].max ?? 0) + 1;',
        "  await pool.query('INSERT INTO tickets (project_id, seq, title) VALUES ($1, $2, $3)', [projectId, seq, title]);",
        '}',
        'export async function close(id: string) {',
        '  await pool.query("UPDATE tickets SET state = \'closed\' WHERE id = $1", [id]);',
        '}',
      ),
      errors: [error('seq', 5, 15)],
    },
    // a helper of an injected service named for the maximum, then an update moving the task
    {
      code: lines(
        "import { TaskNumberService } from './task-number.service';",
        'export class TaskService {',
        '  constructor(private readonly tasks: TaskRepository, private readonly numbers: TaskNumberService) {}',
        '  async move(id: string, projectId: string) {',
        '    const maxNumber = await this.numbers.getMaxTaskNumber({ projectId });',
        '    await this.tasks.update(id, { projectId, number: maxNumber + 1 });',
        '  }',
        '}',
      ),
      errors: [error('number', 6, 54)],
    },
    // TypeORM: the top row ordered DESC, its position plus one assigned, the entity saved
    {
      code: lines(
        'export async function append(repo, listId: string, card) {',
        "  const [top] = await repo.find({ where: { listId }, order: { position: 'DESC' }, take: 1 });",
        '  card.position = top ? top.position + 1 : 0;',
        '  await repo.save(card);',
        '}',
      ),
      errors: [error('position', 3, 25)],
    },
  ],
});
