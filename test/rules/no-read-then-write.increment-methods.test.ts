// no-read-then-write when a bound is checked on the value read and the field is then changed with
// an increment method (Sequelize `row.increment('f', { by })` / `Model.decrement(…, { where })`,
// TypeORM `repo.increment(criteria, 'f', n)`, knex `.where(…).increment('f', n)`): two requests
// both pass the check and together cross the bound. Reported after a check that leaves, and inside
// the consequent of a check that passes (`if (row.used < cap) { await row.increment('used') }`).
// Not reported: the bound in the write's filter, a read that locks its row, an increment with no
// check before it, a check of another field, a check under `||`, a change that cannot cross the
// bound, another row's increment.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'checkedThenChanged', data: { field }, line, column });

/** A Sequelize room read by its key, then `body` (lines 5 on). */
const booking = (...body: string[]) =>
  lines(
    "const { Op } = require('sequelize');",
    "const { Room } = require('./models');",
    'async function bookRoom(roomId, guests, vip) {',
    '  const room = await Room.findByPk(roomId);',
    ...body,
    '}',
    'module.exports = { bookRoom };',
  );

/** A Sequelize shelf read by its key in a transaction (`readOptions`), then `body` (lines 6 on). */
const restock = (readOptions: string, ...body: string[]) =>
  lines(
    "const { Op } = require('sequelize');",
    "const db = require('./models');",
    'async function pickItems(shelfId, qty) {',
    '  return db.sequelize.transaction(async (t) => {',
    `    const shelf = await db.Shelf.findByPk(shelfId, ${readOptions});`,
    ...body,
    '  });',
    '}',
    'module.exports = { pickItems };',
  );

/** A TypeORM ticket batch read by id (`read`), the sold count checked, then `write` (line 9). */
const tickets = (write: string, read = 'this.batches.findOneBy({ id })') =>
  lines(
    "import { Repository } from 'typeorm';",
    'export class TicketDesk {',
    '  constructor(private readonly batches: Repository<TicketBatch>) {}',
    '  async sell(id: string) {',
    `    const batch = await ${read};`,
    '    if (!batch || batch.sold >= batch.limit) {',
    "      throw new Error('sold out');",
    '    }',
    `    await ${write};`,
    '  }',
    '}',
  );

/** A knex quota row read, its use checked against its limit, then `write` (line 6). */
const quota = (write: string) =>
  lines(
    "import knex from 'knex';",
    'const db = knex({});',
    'export async function spendQuota(projectId: string) {',
    "  const row = await db('quotas').where({ projectId }).first();",
    "  if (row.used >= row.limit) throw new Error('over quota');",
    `  await db('quotas').${write};`,
    '}',
  );

/** A Sequelize model class whose method `body` (lines 4 on) runs on a loaded row (`this`), or on the model (`static`). */
const locker = (modifier: string, ...body: string[]) =>
  lines(
    "const { Sequelize } = require('sequelize');",
    'class Locker extends Sequelize.Model {',
    `  ${modifier}async release() {`,
    ...body,
    '  }',
    '}',
    'module.exports = Locker;',
  );

const STOCK_CHECK = ['    if (shelf.stock < qty) {', "      throw new Error('short');", '    }'];

ruleTester.run('no-read-then-write (a bound checked, then an increment method)', rule, {
  valid: [
    // the bound is in the write's filter
    restock(
      '{ transaction: t }',
      ...STOCK_CHECK,
      "    await db.Shelf.decrement('stock', { by: qty, where: { id: shelf.id, stock: { [Op.gte]: qty } }, transaction: t });",
    ),
    // the read locks the row in its transaction
    restock('{ transaction: t, lock: t.LOCK.UPDATE }', ...STOCK_CHECK, "    await shelf.decrement('stock', { by: qty, transaction: t });"),
    // no check before the increment
    booking("  await room.increment('booked', { by: guests });"),
    // the check bounds another field
    booking('  if (room.floor < 3) {', "    await room.increment('booked', { by: guests });", '  }'),
    // a check under `||` may pass on its other side
    booking('  if (room.booked < room.capacity || vip) {', "    await room.increment('booked', { by: guests });", '  }'),
    // a floor held, then the count raised: the floor cannot be crossed
    booking('  if (room.booked > 0) {', "    await room.increment('booked');", '  }'),
    // the write follows the check, outside its consequent, and the check does not leave
    booking('  if (room.booked < room.capacity) console.info(roomId);', "  await room.increment('booked');"),
    // another row's increment: the bound checked was this room's
    booking(
      '  const spare = await Room.findByPk(vip);',
      '  if (room.booked < room.capacity) {',
      "    await spare.increment('booked');",
      '  }',
    ),
    // TypeORM: the read locks the row
    tickets("this.batches.increment({ id }, 'sold', 1)", "this.batches.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } })"),
    // `=== 0` held is no floor
    booking('  if (room.free === 0) {', "    await room.decrement('free');", '  }'),
    // a static method: `this` is the model, not a row read
    locker('static ', "    if (this.inUse <= 0) throw new Error('none');", "    await this.decrement('inUse', { where: { id: 1 } });"),
    // a model's instance method checking another field
    locker('', "    if (this.slots <= 0) throw new Error('none');", "    await this.decrement('inUse');"),
    // knex: the bound in the write's filter
    quota("where({ projectId }).andWhere('used', '<', 100).increment('used', 1)"),
  ],
  invalid: [
    // Sequelize instance increment held in the check's consequent
    {
      code: booking('  if (room.booked < room.capacity) {', "    await room.increment('booked', { by: guests });", '  }'),
      errors: [error('booked', 6, 16)],
    },
    // a check that leaves, then the instance decremented (the amount on the left of the test)
    {
      code: booking('  if (guests > room.free) {', '    return { ok: false };', '  }', "  await room.decrement('free', { by: guests });"),
      errors: [error('free', 8, 14)],
    },
    // `=== 0` that leaves is a floor
    {
      code: booking('  if (room.free === 0) return null;', "  await room.decrement(['free'], { by: 1 });"),
      errors: [error('free', 6, 14)],
    },
    // the fields as an object: each with its own amount
    {
      code: booking('  if (room.booked < room.capacity && room.free > 0) {', '    await room.increment({ booked: 1, free: -1 });', '  }'),
      errors: [error('booked', 6, 16)],
    },
    // Sequelize on the model, filtered by the key only, in a plain transaction
    {
      code: restock(
        '{ transaction: t }',
        ...STOCK_CHECK,
        "    await db.Shelf.decrement('stock', { by: qty, where: { id: shelf.id }, transaction: t });",
      ),
      errors: [error('stock', 9, 20)],
    },
    {
      code: restock(
        '{ transaction: t }',
        ...STOCK_CHECK,
        '    await db.Shelf.decrement({ stock: qty }, { where: { id: shelfId }, transaction: t });',
      ),
      errors: [error('stock', 9, 20)],
    },
    // TypeORM repository increment
    { code: tickets("this.batches.increment({ id }, 'sold', 1)"), errors: [error('sold', 9, 24)] },
    // `!== 0` held: a floor for a decrement
    { code: booking('  if (room.free !== 0) {', "    await room.decrement('free');", '  }'), errors: [error('free', 6, 16)] },
    // a Prisma decrement held in a floor check
    {
      code: lines(
        "import { PrismaClient } from '@prisma/client';",
        'const prisma = new PrismaClient();',
        'export async function payOut(purseId: string, sum: number) {',
        '  const purse = await prisma.purse.findUnique({ where: { id: purseId } });',
        '  if (purse && purse.coins >= sum) {',
        '    await prisma.purse.update({ where: { id: purseId }, data: { coins: { decrement: sum } } });',
        '  }',
        '}',
      ),
      errors: [error('coins', 6, 24)],
    },
    // a model's instance method: `this` is the row its caller loaded
    {
      code: locker('', "    if (this.inUse <= 0) throw new Error('none');", "    await this.decrement('inUse', { by: 1 });"),
      errors: [error('inUse', 5, 16)],
    },
    // knex builder increment
    { code: quota("where({ projectId }).increment('used', 1)"), errors: [error('used', 6, 43)] },
  ],
});
