// no-read-then-write for a number allocated from a read and written: the count of a model's rows
// plus one inserted into that model (also as text: `` `T-${String(n + 1).padStart(3, '0')}` ``),
// the last row's own field plus one (read by a helper named for the last row) set on an entity that
// is saved, or an object holding the number kept in a name or on `this` and handed to a write.
// Not reported: a number the database allocates (a sequence, `RETURNING id`, a counter row changed
// atomically, `findOneAndUpdate` with `$inc`), a count only shown, logged or used for pages, a count
// of another model, the allocation under a row lock on what was counted, a SERIALIZABLE transaction
// or a retry on the unique violation, an object that is never written.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const PRISMA = ["import { PrismaClient } from '@prisma/client';", 'const prisma = new PrismaClient();'];

/** Tickets of a help desk numbered per queue; `body` runs inside `openTicket`, `close` is a plain write. */
const desk = (...body: string[]) =>
  lines(
    ...PRISMA,
    'export async function openTicket(queueId: string, summary: string) {',
    ...body.map((l) => `  ${l}`),
    '}',
    'export async function close(id: string) {',
    "  await prisma.ticket.update({ where: { id }, data: { state: 'closed' } });",
    '}',
  );

const COUNT = 'const opened = await tx.ticket.count({ where: { queueId } });';
const LABEL = "const label = `Q-${String(opened + 1).padStart(3, '0')}`;";
const CREATE = 'return tx.ticket.create({ data: { queueId, summary, label } });';

/** The count and the create in a transaction callback, with `before` first in it and `options` after the callback. */
const inTransaction = (before: string[], options = '') =>
  desk('return prisma.$transaction(async (tx) => {', ...[...before, COUNT, LABEL, CREATE].map((l) => `  ${l}`), `}${options});`);

/** Shelves of a storeroom placed after the latest one; `slot` is what the new shelf's slot is given. */
const storeroom = (slot: string) =>
  lines(
    "import { Shelf } from './shelf.entity';",
    'export class ShelfService {',
    '  constructor(private readonly shelves: ShelfRepository) {}',
    '  async add(roomId: string, width: number) {',
    '    const newest = await this.shelves.getLatestShelfInRoom(roomId);',
    `    const slot = ${slot};`,
    '    const shelf = new Shelf();',
    '    shelf.roomId = roomId;',
    '    shelf.slot = slot;',
    '    shelf.width = width;',
    '    return this.shelves.save(shelf);',
    '  }',
    '}',
  );

/** A match's rounds: the latest read into a `let`, the next kept on `this`, then `tail`. */
const rounds = (tail: string) =>
  lines(
    'export class RoundKeeper {',
    '  private current?: { matchId: string; number: number };',
    '  constructor(private readonly store: RoundStore) {}',
    '  async begin(matchId: string) {',
    '    let previous = await this.store.findLatestRound(matchId);',
    '    this.current = { matchId, number: previous ? previous.number + 1 : 1 };',
    `    ${tail}`,
    '    return previous;',
    '  }',
    '}',
  );

const counted = (field: string, line: number, column: number) => ({ messageId: 'nextFromCount', data: { field }, line, column });
const highest = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

ruleTester.run('no-read-then-write (numbers allocated from a count or the last row)', rule, {
  valid: [
    // a row lock on the queue counted, taken first in the transaction
    inTransaction(['await tx.$queryRaw`SELECT id FROM "Queue" WHERE id = ${queueId} FOR UPDATE`;']),
    // a transaction advisory lock first
    inTransaction(['await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${queueId}))`;']),
    // SERIALIZABLE isolation, in the options after the callback
    inTransaction([], ', { isolationLevel: Prisma.TransactionIsolationLevel.Serializable }'),
    // the create retries on the unique violation
    desk(
      'for (let attempt = 0; attempt < 5; attempt++) {',
      '  try {',
      `    ${COUNT.replace('tx.', 'prisma.')}`,
      `    ${LABEL}`,
      `    ${CREATE.replace('tx.', 'prisma.')}`,
      '  } catch (error) {',
      "    if (error.code !== 'P2002') throw error;",
      '  }',
      '}',
    ),
    // the count only shown
    desk(COUNT.replace('tx.', 'prisma.'), 'return { queueId, position: opened + 1 };'),
    // the count for pages and a log line, the row created without it
    desk(
      COUNT.replace('tx.', 'prisma.'),
      'console.info(`queue ${queueId}: ticket ${opened + 1}`);',
      'const pages = Math.floor(opened / 20) + 1;',
      'await prisma.ticket.create({ data: { queueId, summary } });',
      'return pages;',
    ),
    // the count of another model written into a notice
    desk(COUNT.replace('tx.', 'prisma.'), 'await prisma.notice.create({ data: { queueId, text: `You are number ${opened + 1}` } });'),
    // a counter row changed atomically hands out the number
    lines(
      "import { Pool } from 'pg';",
      'const pool = new Pool();',
      'export async function addParcel(routeId: string) {',
      "  const { rows } = await pool.query('UPDATE route_counters SET next = next + 1 WHERE route_id = $1 RETURNING next', [routeId]);",
      "  await pool.query('INSERT INTO parcels (route_id, tag) VALUES ($1, $2)', [routeId, `P-${rows[0].next}`]);",
      '}',
    ),
    // a sequence, and the identity the insert returns
    lines(
      "import { Pool } from 'pg';",
      'const pool = new Pool();',
      'export async function addParcel(routeId: string) {',
      '  const { rows } = await pool.query("SELECT nextval(\'parcel_tags\') AS n");',
      "  const made = await pool.query('INSERT INTO parcels (route_id, tag) VALUES ($1, $2) RETURNING id', [routeId, `P-${rows[0].n}`]);",
      "  await pool.query('UPDATE parcels SET label = $1 WHERE id = $2', [`L-${made.rows[0].id + 1000}`, made.rows[0].id]);",
      '}',
    ),
    // MongoDB: a counter document incremented by findOneAndUpdate, the previous value plus one
    lines(
      "import { Counter, Voucher } from './models';",
      'export async function issueVoucher(shopId: string) {',
      "  const before = await Counter.findOneAndUpdate({ _id: `voucher:${shopId}` }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'before' });",
      '  return Voucher.create({ shopId, code: `V-${(before?.seq ?? 0) + 1}` });',
      '}',
    ),
    // the latest shelf's width, not its slot, plus one
    storeroom('newest ? newest.width + 1 : 1'),
    // the next round kept on `this` but never written
    rounds('this.log(this.current);'),
    // an object holding the number that is only returned
    desk(
      "const top = await prisma.ticket.findFirst({ where: { queueId }, orderBy: { seq: 'desc' } });",
      'const draft = { queueId, summary, seq: (top?.seq ?? 0) + 1 };',
      'return draft;',
    ),
  ],
  invalid: [
    // Prisma: the count plus one as padded text, kept in a name and created, in a plain transaction
    { code: inTransaction([]), errors: [counted('label', 6, 31)] },
    // …and written straight into the create's data
    {
      code: desk(COUNT.replace('tx.', 'prisma.'), 'return prisma.ticket.create({ data: { queueId, summary, label: `Q-${opened + 1}` } });'),
      errors: [counted('label', 5, 71)],
    },
    // TypeORM: the repository's count plus one set on a new entity that it saves
    {
      code: lines(
        "import { Repository } from 'typeorm';",
        'export class SeatService {',
        '  constructor(private readonly seats: Repository<Seat>) {}',
        '  async reserve(hallId: string) {',
        '    const taken = await this.seats.count({ where: { hallId } });',
        '    const seat = this.seats.create({ hallId });',
        '    seat.position = taken + 1;',
        '    return this.seats.save(seat);',
        '  }',
        '}',
      ),
      errors: [counted('position', 7, 21)],
    },
    // SQL: COUNT(*) plus one in an INSERT into the table counted
    {
      code: lines(
        "import { Pool } from 'pg';",
        'const pool = new Pool();',
        'export async function addParcel(routeId: string) {',
        "  const { rows } = await pool.query('SELECT COUNT(*)::int AS n FROM parcels WHERE route_id = $1', [routeId]);",
        '  const tag = `P-${rows[0].n + 1}`;',
        "  await pool.query('INSERT INTO parcels (route_id, tag) VALUES ($1, $2)', [routeId, tag]);",
        '}',
        'export async function deliver(id: string) {',
        "  await pool.query('UPDATE parcels SET delivered = true WHERE id = $1', [id]);",
        '}',
      ),
      errors: [counted('tag', 5, 20)],
    },
    // a helper named for the latest row, its own field plus one set on an entity saved
    { code: storeroom('newest ? newest.slot + 1 : 1'), errors: [highest('slot', 6, 27)] },
    // an object kept on `this` with the next round, handed to a write; the `let` assigned again after
    { code: rounds('previous = await this.store.save(matchId, this.current);'), errors: [highest('number', 6, 50)] },
    // an object kept in a name, handed inside the create's data
    {
      code: desk(
        "const top = await prisma.ticket.findFirst({ where: { queueId }, orderBy: { seq: 'desc' } });",
        'const draft = { queueId, summary, seq: (top?.seq ?? 0) + 1 };',
        'return prisma.ticket.create({ data: draft });',
      ),
      errors: [highest('seq', 5, 42)],
    },
  ],
});
