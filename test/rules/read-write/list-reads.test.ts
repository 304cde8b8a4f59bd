// no-read-then-write on a list of rows (Prisma's `findMany`, TypeORM's `findBy`, Sequelize's
// `findAll`) written back row by row:
// a row's field written with a value computed from that same field is a lost update, whether the
// write is awaited in the loop, pushed for `$transaction([...])` later, or made in a callback over
// the list. A value derived into another field (a backfill, a rank, a total) loses nothing.
import { noReadThenWrite } from '../../../rules/no-read-then-write.js';
import { ruleTester } from '../rule-tester.js';

const lines = (...l: string[]): string => l.join('\n');
const header = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";

ruleTester.run('no-read-then-write (list reads)', noReadThenWrite, {
  valid: [
    // TypeORM `find({ where })`: a field derived from other fields of the row is the same for every writer
    lines(
      "import { Repository } from 'typeorm';",
      'export class LoanService {',
      '  constructor(private readonly loans: Repository<Loan>) {}',
      '  async reprice(rate: number) {',
      '    const open = await this.loans.find({ where: { open: true } });',
      '    for (const loan of open) {',
      '      await this.loans.update(loan.id, { due: loan.principal * (1 + rate) });',
      '    }',
      '  }',
      '}',
    ),
    // an array's `find(fn)` is no read: the element changed and written is from the request
    lines(
      "import { Repository } from 'typeorm';",
      'export class CartService {',
      '  constructor(private readonly carts: Repository<Cart>) {}',
      '  async bump(lines: CartLine[], sku: string, cartId: string) {',
      '    const line = lines.find((l) => l.sku === sku);',
      '    await this.carts.update(cartId, { count: line.count + 1 });',
      '  }',
      '}',
    ),
    // a backfill: each row gets a value derived from other fields of its own
    lines(
      header,
      'export async function backfillSlugs() {',
      '  const posts = await prisma.post.findMany({ where: { slug: null } });',
      '  for (const post of posts) {',
      "    await prisma.post.update({ where: { id: post.id }, data: { slug: post.title.toLowerCase() + '-' + post.id } });",
      '  }',
      '}',
    ),
    // a total of the rows written to another model
    lines(
      header,
      'export async function recomputeTotal(orderId: string) {',
      '  const items = await prisma.orderItem.findMany({ where: { orderId } });',
      '  const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0);',
      '  await prisma.order.update({ where: { id: orderId }, data: { total } });',
      '}',
    ),
    // ranks from the list's order, one field from another
    lines(
      header,
      'export async function rankPlayers() {',
      "  const players = await prisma.player.findMany({ orderBy: { score: 'desc' } });",
      '  await Promise.all(players.map((player, i) => prisma.player.update({ where: { id: player.id }, data: { rank: i + 1 } })));',
      '}',
    ),
    // compare-and-set: the write only lands while the row still holds what was read
    lines(
      header,
      'export async function drain(accountId: string, fee: number) {',
      '  const pockets = await prisma.pocket.findMany({ where: { accountId } });',
      '  for (const pocket of pockets) {',
      '    await prisma.pocket.updateMany({',
      '      where: { id: pocket.id, balance: pocket.balance },',
      '      data: { balance: pocket.balance - fee },',
      '    });',
      '  }',
      '}',
    ),
    // a field computed from another field of the row
    lines(
      header,
      'export async function addTax(rate: number) {',
      '  const products = await prisma.product.findMany();',
      '  for (const product of products) {',
      '    await prisma.product.update({ where: { id: product.id }, data: { grossPrice: product.netPrice * (1 + rate) } });',
      '  }',
      '}',
    ),
    // Sequelize: a row updated with a value built from other fields
    lines(
      "const { Model } = require('sequelize');",
      'class Seat extends Model {}',
      'async function label(showId) {',
      '  const seats = await Seat.findAll({ where: { showId } });',
      '  for (const seat of seats) await seat.update({ label: seat.row + seat.number });',
      '}',
    ),
    // an array's own `find` is no read
    lines(
      header,
      'export async function pick(ids: string[], delta: number) {',
      '  const wallets = [{ id: ids[0], credits: 0 }];',
      '  const wallet = wallets.find((w) => w.id === ids[0]);',
      '  await prisma.wallet.update({ where: { id: ids[0] }, data: { credits: wallet!.credits + delta } });',
      '}',
    ),
  ],
  invalid: [
    // the new value in a local, the write awaited in the loop
    {
      code: lines(
        header,
        'export async function chargeAll(userId: string, fee: number) {',
        '  const wallets = await prisma.wallet.findMany({ where: { userId } });',
        '  for (const wallet of wallets) {',
        '    const remaining = wallet.credits - fee;',
        '    await prisma.wallet.update({ where: { id: wallet.id }, data: { credits: remaining } });',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 7, column: 25 }],
      output: null,
    },
    // the writes collected for one `$transaction([...])` after the loop
    {
      code: lines(
        header,
        'export async function consume(userId: string, units: number) {',
        '  const grants = await prisma.grant.findMany({ where: { userId, left: { gt: 0 } } });',
        '  const writes = [];',
        '  for (const grant of grants) {',
        '    const left = grant.left - units;',
        '    writes.push(prisma.grant.update({ where: { id: grant.id }, data: { left } }));',
        '  }',
        '  await prisma.$transaction(writes);',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 8, column: 30 }],
      output: null,
    },
    // a callback over the list
    {
      code: lines(
        header,
        'export async function restock(warehouseId: string, count: number) {',
        '  const bins = await prisma.bin.findMany({ where: { warehouseId } });',
        '  await Promise.all(bins.map((bin) => prisma.bin.update({ where: { id: bin.id }, data: { onHand: bin.onHand + count } })));',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 5, column: 50 }],
      output: null,
    },
    // TypeORM: rows changed in the loop, saved together
    {
      code: lines(
        "import { Repository } from 'typeorm';",
        'export class StockService {',
        '  constructor(private readonly stock: Repository<Stock>) {}',
        '  async consume(sku: string, n: number) {',
        '    const rows = await this.stock.findBy({ sku });',
        '    for (const row of rows) {',
        '      row.onHand = row.onHand - n;',
        '    }',
        '    await this.stock.save(rows);',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 9, column: 22 }],
      output: null,
    },
    // Sequelize: each instance changed and saved
    {
      code: lines(
        "const { Model } = require('sequelize');",
        'class Seat extends Model {}',
        'async function release(showId, n) {',
        '  const seats = await Seat.findAll({ where: { showId } });',
        '  for (const seat of seats) {',
        '    seat.free += n;',
        '    await seat.save();',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 7, column: 16 }],
      output: null,
    },
    // TypeORM `find({ where })`, in a callback over the list: the written field reads its own value among other terms
    {
      code: lines(
        "import { Repository } from 'typeorm';",
        'export class LoanService {',
        '  constructor(private readonly loans: Repository<Loan>) {}',
        '  async accrue(rate: number) {',
        '    const open = await this.loans.find({ where: { open: true } });',
        '    open.forEach((loan) => {',
        '      const interest = loan.interest + loan.principal * rate;',
        '      this.loans.update(loan.id, { interest });',
        '    });',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 8, column: 18 }],
      output: null,
    },
  ],
});
