// no-read-then-write on rows loaded earlier than the function that changes them, or loaded beside
// their parent: a Mongoose schema's instance method (`schema.methods.take = function () {
// this.freeSlots -= 1; return this.save(); }`, `schema.methods = {…}`, `schema.method('take', fn)`),
// whose `this` is a document its caller loaded; a row of an association (`const { campaign } =
// coupon`, `coupon.campaign`) saved on its own; a row looked up in a `Map` of a list read by key.
// Not reported: the database doing the arithmetic (`this.updateOne({ $inc })`, `increment`), a
// value not made from the field's own, an arrow's or a nested function's `this`, a class's own
// `save`, the parent's change when only the association is saved, a bound checked on a row looked
// up by key before an atomic change.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A locker schema whose `methods` are `body`. */
const lockers = (...body: string[]) =>
  lines(
    "import { Schema, model } from 'mongoose';",
    'const lockerSchema = new Schema({ freeSlots: Number, openedAt: Date });',
    ...body,
    "export const Locker = model('Locker', lockerSchema);",
  );

/** A coupon loaded with its campaign; `body` changes and saves. */
const coupons = (...body: string[]) =>
  lines(
    "import { Coupon } from '../models/coupon';",
    'export async function redeem(couponId: string, n: number) {',
    "  const coupon = await Coupon.findByPk(couponId, { include: ['campaign'] });",
    ...body.map((line) => `  ${line}`),
    '}',
  );

/** Seats of a request read in one query, put in a Map by id; `body` runs per line. */
const seats = (...body: string[]) =>
  lines(
    "const Seat = require('../models/seat');",
    'exports.hold = async (req, res) => {',
    '  const rows = await Seat.find({ _id: { $in: req.body.lines.map((l) => l.seatId) } });',
    '  const seatsById = new Map(rows.map((seat) => [String(seat._id), seat]));',
    '  for (const line of req.body.lines) {',
    '    const seat = seatsById.get(line.seatId);',
    ...body.map((line) => `    ${line}`),
    '  }',
    '  res.status(204).end();',
    '};',
  );

ruleTester.run('no-read-then-write (instance methods, associations, rows by key)', rule, {
  valid: [
    // the database does the arithmetic
    lockers('lockerSchema.methods.take = function (count: number) {', '  return this.updateOne({ $inc: { freeSlots: -count } });', '};'),
    // a value not made from the field's own
    lockers('lockerSchema.methods.open = async function () {', '  this.openedAt = new Date();', '  await this.save();', '};'),
    // an arrow's `this` is not the document
    lockers('lockerSchema.methods.take = async () => {', '  this.freeSlots -= 1;', '  await this.save();', '};'),
    // a nested function has a `this` of its own
    lockers(
      'lockerSchema.methods.later = function () {',
      '  setTimeout(function () {',
      '    this.freeSlots -= 1;',
      '    this.save();',
      '  }, 10);',
      '};',
    ),
    // a static's `this` is the model
    lockers(
      'lockerSchema.statics.take = function (id: string) {',
      '  return this.updateOne({ _id: id, freeSlots: { $gt: 0 } }, { $inc: { freeSlots: -1 } });',
      '};',
    ),
    // a class of the project with a `save` of its own
    lines(
      'export class Tally {',
      '  count = 0;',
      '  async bump() {',
      '    this.count += 1;',
      '    await this.save();',
      '  }',
      '  async save() {}',
      '}',
    ),
    // the association saved with a value not made from its own
    coupons('const { campaign } = coupon;', 'campaign.title = String(n);', 'await campaign.save();'),
    // the association changed by the database
    coupons('const { campaign } = coupon;', "await campaign.increment('redeemed', { by: n });"),
    // the parent changed, only the association saved
    coupons('const { campaign } = coupon;', 'coupon.views = coupon.views + 1;', 'await campaign.save();'),
    // a row by key, changed by the database with the bound in the filter
    seats(
      'const done = await Seat.updateOne({ _id: seat._id, held: { $lte: seat.capacity - line.count } }, { $inc: { held: line.count } });',
      'if (done.modifiedCount === 0) return res.status(409).end();',
    ),
    // a row by key given a value not made from its own
    seats('seat.label = line.label;', 'await seat.save();'),
    // a bound checked on rows by key in one loop, the stock lowered atomically in another
    lines(
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function reserve(lines: { kitId: string; qty: number }[]) {',
      '  const kits = await prisma.kit.findMany({ where: { id: { in: lines.map((l) => l.kitId) } } });',
      '  const kitsById = new Map(kits.map((kit) => [kit.id, kit]));',
      '  for (const line of lines) {',
      "    if (kitsById.get(line.kitId)!.onHand < line.qty) throw new Error('short');",
      '  }',
      '  await Promise.all(',
      '    lines.map((line) => prisma.kit.update({ where: { id: line.kitId }, data: { onHand: { decrement: line.qty } } })),',
      '  );',
      '}',
    ),
  ],
  invalid: [
    {
      code: lockers(
        'lockerSchema.methods.take = async function () {',
        '  this.freeSlots -= 1;',
        '  await this.save();',
        '  return this.freeSlots;',
        '};',
      ),
      errors: [error('mongoose', 'freeSlots', 5, 14)],
    },
    {
      code: lockers(
        'lockerSchema.methods = {',
        '  async take(count: number) {',
        '    this.freeSlots = this.freeSlots - count;',
        '    return this.save();',
        '  },',
        '};',
      ),
      errors: [error('mongoose', 'freeSlots', 6, 17)],
    },
    {
      code: lockers("lockerSchema.method('take', function (count) {", '  this.freeSlots -= count;', '  return this.save();', '});'),
      errors: [error('mongoose', 'freeSlots', 5, 15)],
    },
    {
      code: lockers(
        'lockerSchema.methods.take = function (count: number) {',
        '  return this.updateOne({ $set: { freeSlots: this.freeSlots - count } });',
        '};',
      ),
      errors: [error('mongoose', 'freeSlots', 4, 15)],
    },
    {
      code: coupons(
        'const { campaign } = coupon;',
        "if (campaign.redeemed + n > campaign.cap) throw new Error('campaign full');",
        'campaign.redeemed = campaign.redeemed + n;',
        'await campaign.save();',
      ),
      errors: [error('sequelize', 'redeemed', 7, 18)],
    },
    { code: coupons('coupon.campaign.redeemed += n;', 'await coupon.campaign.save();'), errors: [error('sequelize', 'redeemed', 5, 25)] },
    {
      code: seats(
        'if (seat.capacity - seat.held < line.count) return res.status(409).end();',
        'seat.held += line.count;',
        'await seat.save();',
      ),
      errors: [error('mongoose', 'held', 9, 16)],
    },
  ],
});
