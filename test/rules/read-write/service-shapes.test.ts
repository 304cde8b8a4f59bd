// no-read-then-write on the shapes services write: reads through a repository accessor chain,
// a `.catch()` on the read, a document re-created when missing, a structure decoded from a loaded
// field, Prisma through a transaction-client getter, and Sequelize save hooks; and the shapes
// that lose nothing (atomic increments, a locked read, a fresh value, nothing written back).
import { noReadThenWrite } from '../../../rules/no-read-then-write.js';
import { ruleTester } from '../rule-tester.js';

const lines = (...l: string[]): string => l.join('\n');

ruleTester.run('no-read-then-write (service shapes)', noReadThenWrite, {
  valid: [
    // a decimal built from the request, not from the row read
    lines(
      "import Big from 'big.js';",
      "import { Repository } from 'typeorm';",
      'export class PriceService {',
      '  constructor(private readonly products: Repository<Product>) {}',
      '  async reprice(id: string, net: number, rate: number) {',
      '    const product = await this.products.findOneBy({ id });',
      '    await this.products.update(product.id, { gross: Big(net).times(1 + rate).toNumber() });',
      '  }',
      '}',
    ),
    // a helper out of reach taken for a loader by its name, its value used whole: a string or a number, not a row
    lines(
      "import { PrismaClient } from '@prisma/client';",
      "import getExtensionFor from '@/lib/files';",
      'const prisma = new PrismaClient();',
      'export async function attach(id: string, mime: string) {',
      '  const extension = await getExtensionFor(mime);',
      '  await prisma.upload.update({ where: { id }, data: { path: id + extension } });',
      '}',
    ),
    // a path built from the row's key: the key never changes, nothing can be lost
    lines(
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function attach(id: string, suffix: string) {',
      '  const link = await prisma.link.findUnique({ where: { id } });',
      '  await prisma.link.update({ where: { id }, data: { image: `archives/${link!.id + suffix}`, pdf: link!.id + suffix } });',
      '}',
    ),
    // the accessor chain, but the arithmetic runs in the database
    lines(
      'export class BinService {',
      '  constructor(private readonly db: TenantDb) {}',
      '  async adjust(ctx: Ctx, binId: string, delta: number) {',
      '    const bin = await this.db.getRepository(ctx, Bin).findOne({ where: { binId } });',
      "    if (bin) await this.db.getRepository(ctx, Bin).increment({ id: bin.id }, 'onHand', delta);",
      '  }',
      '}',
    ),
    // the accessor chain with a row lock: a second writer waits for the commit
    lines(
      'export async function reserve(manager: Manager, binId: string, qty: number) {',
      "  const bin = await manager.getRepository(Bin).findOne({ where: { binId }, lock: { mode: 'pessimistic_write' } });",
      '  await manager.getRepository(Bin).update(bin.id, { reserved: bin.reserved + qty });',
      '}',
    ),
    // a name given a fresh value on every path no longer holds the read
    lines(
      'export async function resetBadge(source: Source, userId: string) {',
      '  let badge = await source.getRepository(Badge).findOneBy({ userId });',
      '  badge = new Badge();',
      '  badge.level += 1;',
      '  await source.getRepository(Badge).save(badge);',
      '}',
    ),
    // a structure decoded from a loaded field and changed, but never written back
    lines(
      'export async function preview(source: Source, id: string) {',
      '  const page = await source.getRepository(Page).findOneBy({ id });',
      '  const layout = JSON.parse(page.layoutJson);',
      '  layout.columns += 1;',
      '  return layout;',
      '}',
    ),
    // a create hook: the row does not exist yet, nothing is overwritten
    lines(
      "import { BeforeCreate, Model, Table } from 'sequelize-typescript';",
      '@Table',
      'export class Ticket extends Model {',
      '  @BeforeCreate',
      '  static number(ticket: Ticket) {',
      '    ticket.sequence += 1;',
      '  }',
      '}',
    ),
    // an update hook that sets values not derived from the field itself
    lines(
      "import { BeforeUpdate, Model, Table } from 'sequelize-typescript';",
      '@Table',
      'export class Ticket extends Model {',
      '  @BeforeUpdate',
      '  static normalise(ticket: Ticket) {',
      '    ticket.subject = ticket.subject.trim();',
      '    ticket.touchedAt = new Date();',
      '    ticket.status = ticket.status || "open";',
      '  }',
      '}',
    ),
    // Prisma through a transaction-client getter, with the increment in the database
    lines(
      'export class BoardService {',
      '  async bump(boardId: string) {',
      '    const board = await this.prisma.txClient().board.findFirstOrThrow({ where: { id: boardId } });',
      '    await this.prisma.txClient().board.update({ where: { id: board.id }, data: { revision: { increment: 1 } } });',
      '  }',
      '}',
    ),
    // a helper of a package, not of the project: its result is not known to be a row
    lines(
      "import { loadProfile } from 'profile-sdk';",
      'export async function visit(store: Store, userId: string) {',
      '  const profile = await loadProfile(userId);',
      '  profile.visits += 1;',
      '  await store.save(profile);',
      '}',
    ),
    // a same-file helper that builds a fresh object is not a read
    lines(
      'function emptyCart(ownerId: string) {',
      '  return { ownerId, items: 0 };',
      '}',
      'export async function addItem(repo: CartRepository, ownerId: string) {',
      '  const cart = emptyCart(ownerId);',
      '  cart.items += 1;',
      '  await repo.save(cart);',
      '}',
    ),
    // a scoped Sequelize read that locks its row inside the transaction
    lines(
      "import { Model } from 'sequelize';",
      'export async function persist(id: string, transaction: Transaction) {',
      "  const note = await Note.unscoped().scope('light').findOne({ where: { id }, transaction, lock: transaction.LOCK.UPDATE });",
      '  await note.update({ revisions: note.revisions + 1 }, { transaction });',
      '}',
    ),
    // a project helper that hands out a repository, not a row
    lines(
      "import { getOrderRepository } from '../db/repositories';",
      'export async function rename(id: string, label: string) {',
      '  const orders = getOrderRepository();',
      '  orders.renames += 1;',
      '  await orders.save({ id, label });',
      '}',
    ),
    // inside a transaction, a conditional write took the row lock before the read
    lines(
      'export async function hold(prisma: Prisma, id: string) {',
      '  return prisma.$transaction(async (tx) => {',
      "    await tx.seat.updateMany({ where: { id, state: 'free' }, data: { state: 'held' } });",
      '    const seat = await tx.seat.findUnique({ where: { id } });',
      '    await tx.seat.update({ where: { id }, data: { holds: seat.holds + 1 } });',
      '  });',
      '}',
    ),
    // the same with raw SQL taking the lock first in a Sequelize transaction
    lines(
      "import { Model } from 'sequelize';",
      'export async function touch(sequelize: Sequelize, id: string) {',
      '  await sequelize.transaction(async (transaction) => {',
      "    await sequelize.query('UPDATE documents SET touched_at = now() WHERE id = :id', { replacements: { id }, transaction });",
      '    const doc = await Document.findByPk(id, { transaction });',
      '    await doc.update({ revisions: doc.revisions + 1 }, { transaction });',
      '  });',
      '}',
    ),
  ],
  invalid: [
    // a repository handed out for the entity, read, then written back through the same chain
    {
      code: lines(
        'export class BinService {',
        '  constructor(private readonly db: TenantDb) {}',
        '  async adjust(ctx: Ctx, binId: string, delta: number) {',
        '    const bin = await this.db.getRepository(ctx, Bin).findOne({ where: { binId } });',
        '    if (bin) {',
        '      await this.db',
        '        .getRepository(ctx, Bin)',
        '        .update(bin.id, { onHand: bin.onHand + delta });',
        '    }',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 8, column: 10 }],
    },
    // `.catch()` on the read, a structure decoded from a loaded field, changed and encoded back, then saved
    {
      code: lines(
        'export async function dropSection(source: Source, bookId: string, sectionId: string) {',
        '  const book = await source',
        '    .getRepository(Book)',
        '    .findOneBy({ id: bookId })',
        '    .catch(() => null);',
        '  const sections = JSON.parse(book.sectionsJson);',
        '  const section = sections.find((s: { id: string }) => s.id === sectionId);',
        '  section.pageCount -= 1;',
        '  book.sectionsJson = JSON.stringify(sections);',
        '  await source.getRepository(Book).save(book);',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 10, column: 36 }],
    },
    // a document created when missing: on either path the name holds a loaded document
    {
      code: lines(
        "import { model } from 'mongoose';",
        "const Quota = model('Quota', quotaSchema);",
        'export async function chargeQuota(teamId: string, used: number) {',
        '  let quota = await Quota.findOne({ team: teamId });',
        '  if (!quota) {',
        '    quota = await Quota.create({ team: teamId, used: 0 });',
        '  }',
        '  quota.used += used;',
        '  await quota.save();',
        '}',
      ),
      errors: [{ messageId: 'mongoose', line: 9, column: 15 }],
    },
    // Prisma through a transaction-client getter, the read settled by `.catch()`, version + 1 with no version in where
    {
      code: lines(
        'export class BoardService {',
        '  async rename(boardId: string, title: string) {',
        '    const board = await this.prisma',
        '      .txClient()',
        '      .board.findFirstOrThrow({ where: { id: boardId }, select: { revision: true } })',
        "      .catch(() => { throw new Error('no board'); });",
        '    await this.prisma.txClient().board.update({ where: { id: boardId }, data: { title, revision: board.revision + 1 } });',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 7, column: 40 }],
    },
    // a sequelize-typescript update hook: the save writes the incremented absolute value
    {
      code: lines(
        "import { BeforeUpdate, Column, Model, Table } from 'sequelize-typescript';",
        '@Table',
        'export class Article extends Model {',
        '  @Column editCount!: number;',
        '  @BeforeUpdate',
        '  static countEdit(article: Article) {',
        '    article.editCount += 1;',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 7, column: 5 }],
    },
    // classic Sequelize hooks: registered by method, by addHook, and in the model options
    {
      code: lines(
        "import { Model } from 'sequelize';",
        'Invoice.beforeSave((invoice) => {',
        '  invoice.revision = invoice.revision + 1;',
        '});',
        "Invoice.addHook('beforeUpdate', 'stamp', (invoice) => {",
        '  invoice.edits++;',
        '});',
        'Member.init(attributes, {',
        '  hooks: {',
        '    beforeUpdate(member) {',
        '      member.logins -= 1;',
        '    },',
        '  },',
        '});',
      ),
      errors: [
        { messageId: 'sequelize', line: 3, column: 3 },
        { messageId: 'sequelize', line: 6, column: 3 },
        { messageId: 'sequelize', line: 11, column: 7 },
      ],
    },
    // a same-file helper that returns a read
    {
      code: lines(
        'async function teamRow(db: Db, teamId: string) {',
        '  return db.team.findUnique({ where: { id: teamId } });',
        '}',
        'export async function addSeat(db: Db, teamId: string) {',
        '  const team = await teamRow(db, teamId);',
        '  await db.team.update({ where: { id: teamId }, data: { seats: team.seats + 1 } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 6, column: 17 }],
    },
    // loader-named helpers of the project whose module is out of reach: an imported function, a service method
    {
      code: lines(
        "import { findInvoice } from '../billing/invoices';",
        'export class RetryService {',
        '  constructor(private readonly invoiceService: InvoiceService, private readonly invoiceRepository: InvoiceRepository) {}',
        '  async retry(id: string) {',
        '    const invoice = await findInvoice(id);',
        '    invoice.attempts += 1;',
        '    await invoice.save();',
        '  }',
        '  async retryLater(id: string) {',
        '    const invoice = await this.invoiceService.getInvoice(id);',
        '    invoice.delays++;',
        '    await this.invoiceRepository.save(invoice);',
        '  }',
        '}',
      ),
      errors: [
        { messageId: 'sequelize', line: 7, column: 19 },
        { messageId: 'typeorm', line: 12, column: 34 },
      ],
    },
    // a scoped Sequelize read without a lock
    {
      code: lines(
        "import { Model } from 'sequelize';",
        'export async function persist(id: string) {',
        "  const note = await Note.scope('light').findByPk(id);",
        '  await note.update({ revisions: note.revisions + 1 });',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 4, column: 14 }],
    },
    // a write before the read, but no transaction holds its lock; and a transaction that locked another table
    {
      code: lines(
        'export async function hold(prisma: Prisma, id: string) {',
        "  await prisma.seat.updateMany({ where: { id, state: 'free' }, data: { state: 'held' } });",
        '  const seat = await prisma.seat.findUnique({ where: { id } });',
        '  await prisma.seat.update({ where: { id }, data: { holds: seat.holds + 1 } });',
        '}',
        'export async function holdInTransaction(prisma: Prisma, id: string) {',
        '  return prisma.$transaction(async (tx) => {',
        "    await tx.venue.updateMany({ where: { id }, data: { state: 'busy' } });",
        '    const seat = await tx.seat.findUnique({ where: { id } });',
        '    await tx.seat.update({ where: { id }, data: { holds: seat.holds + 1 } });',
        '  });',
        '}',
      ),
      errors: [
        { messageId: 'prisma', line: 4, column: 21 },
        { messageId: 'prisma', line: 10, column: 19 },
      ],
    },
    // a balance changed through a decimal library (`Big(x).minus(y)`, `new Decimal(x)`) and handed back with `toNumber()`
    {
      code: lines(
        "import Big from 'big.js';",
        "import Decimal from 'decimal.js';",
        "import { Repository } from 'typeorm';",
        'export class WalletService {',
        '  constructor(private readonly wallets: Repository<Wallet>) {}',
        '  async debit(ownerId: string, amount: number) {',
        '    const { id, funds } = await this.wallets.findOne({ where: { ownerId } });',
        '    const held = Big(funds);',
        '    const left = held.minus(amount);',
        '    const patch: Partial<Wallet> = { funds: left.toNumber() };',
        '    await this.wallets.update(id, patch);',
        '  }',
        '  async credit(ownerId: string, amount: number) {',
        '    const wallet = await this.wallets.findOneBy({ ownerId });',
        '    await this.wallets.update(wallet.id, { funds: new Decimal(wallet.funds).plus(amount).toNumber() });',
        '  }',
        '}',
      ),
      errors: [
        { messageId: 'typeorm', line: 11, column: 24 },
        { messageId: 'typeorm', line: 15, column: 24 },
      ],
    },
    // Mongoose: a read narrowed with `.select()` (or joined with `.populate()`) is still the document read
    {
      code: lines(
        "const Item = require('../models/item');",
        'exports.take = async (itemId, n) => {',
        "  const item = await Item.findById(itemId).select('stock');",
        '  item.stock = item.stock - n;',
        '  await item.save();',
        '};',
      ),
      errors: [{ messageId: 'mongoose', line: 5, column: 14 }],
    },
  ],
});
