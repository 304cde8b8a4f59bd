// no-read-then-write when the row was loaded by an auth middleware in another file and hung on the
// request: `req.user`, `request.user`, `ctx.state.user`, `res.locals.user`, a Nest `@Req() req` or
// a parameter handed by a user decorator (`@CurrentUser() user`), and a row the caller hands in
// typed with a model imported from an entity or model module (or Prisma's client). A field written
// back computed from its own value loses what another request wrote since the middleware's read.
// Not reported: a value not computed from the row (`lastSeen`), the database doing the change
// (`increment`, `$inc`), a version compared in the filter, a re-read that locks the row, the
// request's other bags (`body`, `session`), a `req` that is no parameter, a DTO-typed parameter.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

const EXPRESS = "import { Router } from 'express';\nconst router = Router();";
const SEQUELIZE = "import { Op } from 'sequelize';\nimport { Member } from '../models/member.js';";
const NEST = "import { Body, Controller, Post, Req } from '@nestjs/common';\nimport { CurrentUser } from '../auth/current-user.decorator';";

ruleTester.run('no-read-then-write (rows a middleware loaded)', rule, {
  valid: [
    // a value not computed from the row, and the database's own increment
    lines(
      EXPRESS,
      "router.post('/ping', async (req, res) => {",
      '  const member = req.user;',
      '  member.lastSeenAt = new Date();',
      '  await member.save();',
      "  await req.user.increment('pings', { by: 1 });",
      '  res.sendStatus(204);',
      '});',
    ),
    // MongoDB's `$inc`, and a compare-and-set on a version read from the row
    lines(
      SEQUELIZE,
      'export async function redeem(req, res) {',
      '  await Member.updateOne({ _id: req.user._id }, { $inc: { vouchers: -1 } });',
      '  await Member.update(',
      '    { vouchers: req.user.vouchers - 1, revision: req.user.revision + 1 },',
      '    { where: { id: req.user.id, revision: req.user.revision } },',
      '  );',
      '  res.sendStatus(204);',
      '}',
    ),
    // the row read again, locked, inside the transaction: only the fresh copy is written
    lines(
      SEQUELIZE,
      "import { db } from '../db.js';",
      'export async function redeem(req, res) {',
      '  await db.transaction(async (t) => {',
      '    const fresh = await Member.findByPk(req.user.id, { transaction: t, lock: t.LOCK.UPDATE });',
      '    fresh.vouchers = fresh.vouchers - 1;',
      '    await fresh.save({ transaction: t });',
      '  });',
      '  res.sendStatus(204);',
      '}',
    ),
    // the request's other bags hold no row: the session store's object, the client's body
    lines(
      EXPRESS,
      "import { drafts } from '../drafts.js';",
      "router.post('/draft', async (req, res) => {",
      '  req.session.visits = (req.session.visits || 0) + 1;',
      '  req.session.save();',
      '  const draft = req.body;',
      '  draft.revision = draft.revision + 1;',
      '  await drafts.save(draft);',
      '  res.sendStatus(204);',
      '});',
    ),
    // `req` here is a module's own object, not a request handed in
    lines(
      "import { Member } from '../models/member.js';",
      'const req = { user: { id: 1, vouchers: 3 } };',
      'export async function seed() {',
      '  await Member.update({ vouchers: req.user.vouchers - 1 }, { where: { id: req.user.id } });',
      '}',
    ),
    // a values type (a DTO) is not a row, nor is the body a decorator hands
    lines(
      NEST,
      "import { RedeemDto } from './dto/redeem.dto';",
      "import { Repository } from 'typeorm';",
      'export class VoucherService {',
      '  constructor(private readonly vouchers: Repository<Voucher>) {}',
      '  async redeem(input: RedeemDto, @Body() body: RedeemDto) {',
      '    input.remaining = input.remaining - 1;',
      '    await this.vouchers.save(input);',
      '    await this.vouchers.save({ id: body.id, remaining: body.remaining - 1 });',
      '  }',
      '}',
    ),
  ],
  invalid: [
    // Express: Passport's row, changed and saved (Mongoose or Sequelize instance)
    {
      code: lines(
        EXPRESS,
        "router.post('/spend', async (req, res) => {",
        '  const member = req.user;',
        '  member.tokens = member.tokens - Number(req.body.cost);',
        '  await member.save();',
        '  res.json({ ok: true });',
        '});',
      ),
      errors: [error('sequelize', 'tokens', 6, 16)],
    },
    // the instance's own update, inside a callback of the handler
    {
      code: lines(
        EXPRESS,
        "router.post('/top-up', (req, res) => {",
        '  return charges.create(req.body).then(() => req.user.update({ tokens: req.user.tokens + 5 }));',
        '});',
      ),
      errors: [error('sequelize', 'tokens', 4, 55)],
    },
    // the model's static update, keyed by the row's id
    {
      code: lines(
        SEQUELIZE,
        'export async function consume(req, res) {',
        '  await Member.update({ quota: req.user.quota - 1 }, { where: { id: req.user.id } });',
        '  res.sendStatus(204);',
        '}',
      ),
      errors: [error('sequelize', 'quota', 4, 16)],
    },
    // Koa: the row destructured from `ctx.state`, Mongoose's `+=`
    {
      code: lines(
        "import mongoose from 'mongoose';",
        'export async function award(ctx) {',
        '  const { user } = ctx.state;',
        '  user.points += 5;',
        '  await user.save();',
        '}',
      ),
      errors: [error('mongoose', 'points', 5, 14)],
    },
    // Express: the row left in `res.locals`
    {
      code: lines(
        EXPRESS,
        "router.post('/award', async (req, res) => {",
        '  res.locals.user.points++;',
        '  await res.locals.user.save();',
        '  res.end();',
        '});',
      ),
      errors: [error('sequelize', 'points', 5, 25)],
    },
    // Nest: the request handed by `@Req()` (named otherwise), and the row a user decorator hands
    {
      code: lines(
        NEST,
        "import { Repository } from 'typeorm';",
        "@Controller('wallet')",
        'export class WalletController {',
        '  constructor(private readonly accounts: Repository<Account>) {}',
        "  @Post('spend')",
        '  async spend(@Req() incoming, @Body() body: { amount: number }) {',
        '    incoming.user.credits -= body.amount;',
        '    await this.accounts.save(incoming.user);',
        '  }',
        "  @Post('refund')",
        '  async refund(@CurrentUser() account: Account, @Body() body: { amount: number }) {',
        '    account.credits = account.credits + body.amount;',
        '    await this.accounts.save(account);',
        '  }',
        '}',
      ),
      errors: [error('typeorm', 'credits', 10, 25), error('typeorm', 'credits', 15, 25)],
    },
    // a row the caller hands in, typed with an entity class of the project
    {
      code: lines(
        "import { Repository } from 'typeorm';",
        "import { Wallet } from './wallet.entity';",
        'export class WalletService {',
        '  constructor(private readonly wallets: Repository<Wallet>) {}',
        '  async charge(wallet: Wallet, amount: number) {',
        '    wallet.balance = wallet.balance - amount;',
        '    return this.wallets.save(wallet);',
        '  }',
        '}',
      ),
      errors: [error('typeorm', 'balance', 7, 25)],
    },
    // …or with a model of Prisma's client
    {
      code: lines(
        "import type { Member } from '@prisma/client';",
        "import { prisma } from '../db';",
        'export async function spendPoints(member: Member, cost: number) {',
        '  await prisma.member.update({ where: { id: member.id }, data: { points: member.points - cost } });',
        '}',
      ),
      errors: [error('prisma', 'points', 4, 23)],
    },
  ],
});
