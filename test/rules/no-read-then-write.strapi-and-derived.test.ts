// no-read-then-write through Strapi's query engine (`strapi.db.query(uid).findOne` then `.update({
// where, data })`), its document service (`strapi.documents(uid)`) and its entity service
// (`strapi.entityService.findOne(uid, id)` / `update(uid, id, { data })`); a compound assignment
// used as the written value (`update(id, { seats: (plan.seats += n) })`); a field derived from
// another that the same write changes in the database (`$inc: { points }` with `$set: { rank }`
// computed from the points read). Not reported: a value not made from the read, a compare-and-set,
// another content type written, a string appended, a local sum, a derived field whose source the
// write leaves alone, or a derived value not made from the read.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A Strapi service of venues: `body` is one method. */
const venues = (...body: string[]) => lines('export default ({ strapi }) => ({', ...body.map((line) => `  ${line}`), '});');

/** A plan service on a TypeORM repository: `body` is the end of `change(planId, n)`. */
const plans = (body: string) =>
  lines(
    "import { Repository } from 'typeorm';",
    "import { Plan } from './plan.entity';",
    'export class PlanService {',
    '  constructor(private readonly plans: Repository<Plan>) {}',
    '  async change(planId: string, n: number) {',
    '    const plan = await this.plans.findOneBy({ planId });',
    `    ${body}`,
    '  }',
    '}',
  );

/** Badges with points and a rank derived from them: `write` after the badge is read. */
const pointRows = (write: string) =>
  lines(
    "import { Schema, model } from 'mongoose';",
    "const Badge = model('Badge', new Schema({ ownerId: String, points: Number, rank: Number, seenAt: Date }));",
    'const rankFor = (points: number) => Math.floor(points / 50);',
    'export async function grant(ownerId: string, gained: number) {',
    '  const badge = await Badge.findOne({ ownerId }).lean();',
    `  ${write}`,
    '}',
  );

ruleTester.run('no-read-then-write (Strapi, compound values, derived fields)', rule, {
  valid: [
    // a value not made from the read
    venues(
      'async close(venueId: number) {',
      "  const venue = await strapi.db.query('api::venue.venue').findOne({ where: { id: venueId } });",
      '  if (venue.closed) return venue;',
      "  return strapi.db.query('api::venue.venue').update({ where: { id: venueId }, data: { closed: true } });",
      '},',
    ),
    // a compare-and-set: the filter holds the value read
    venues(
      'async book(venueId: number) {',
      "  const venue = await strapi.db.query('api::venue.venue').findOne({ where: { id: venueId } });",
      "  return strapi.db.query('api::venue.venue').update({ where: { id: venueId, booked: venue.booked }, data: { booked: venue.booked + 1 } });",
      '},',
    ),
    // another content type written
    venues(
      'async log(venueId: number) {',
      "  const venue = await strapi.db.query('api::venue.venue').findOne({ where: { id: venueId } });",
      "  return strapi.db.query('api::visit.visit').update({ where: { venue: venueId }, data: { seen: venue.booked + 1 } });",
      '},',
    ),
    // a string appended
    plans("if (plan) await this.plans.update(planId, { title: (plan.title += ' (copy)') });"),
    // a sum of the function's own
    plans('let sum = 0;\n    await this.plans.update(planId, { price: (sum += n) });'),
    // derived from the read, but its source left alone by the write
    pointRows('await Badge.updateOne({ ownerId }, { $set: { rank: rankFor(badge.points) } });'),
    // the source changed in the database, the derived value not made from the read
    pointRows('await Badge.updateOne({ ownerId }, { $inc: { points: gained }, $set: { seenAt: new Date(), rank: rankFor(gained) } });'),
  ],
  invalid: [
    {
      code: lines(
        'export async function restock(strapi: any, lines: { dishId: number; qty: number }[]) {',
        '  for (const line of lines) {',
        "    const dish = await strapi.db.query('api::dish.dish').findOne({ where: { id: line.dishId }, select: ['portions'] });",
        '    if (!dish) continue;',
        "    await strapi.db.query('api::dish.dish').update({",
        '      where: { id: line.dishId },',
        '      data: { portions: dish.portions + line.qty },',
        '    });',
        '  }',
        '}',
      ),
      errors: [error('strapi', 'portions', 5, 45)],
    },
    {
      code: venues(
        'async addSeats(venueId: number, seats: number) {',
        "  const venue = await strapi.entityService.findOne('api::venue.venue', venueId);",
        "  return strapi.entityService.update('api::venue.venue', venueId, { data: { capacity: venue.capacity + seats } });",
        '},',
      ),
      errors: [error('strapi', 'capacity', 4, 33)],
    },
    {
      code: venues(
        'async book(documentId: string) {',
        "  const venue = await strapi.documents('api::venue.venue').findOne({ documentId });",
        "  return strapi.documents('api::venue.venue').update({ documentId, data: { booked: venue.booked + 1 } });",
        '},',
      ),
      errors: [error('strapi', 'booked', 4, 49)],
    },
    { code: plans('if (plan) await this.plans.update(planId, { seats: (plan.seats += n) });'), errors: [error('typeorm', 'seats', 7, 32)] },
    {
      code: pointRows(
        'const rank = rankFor(badge.points + gained);\n  await Badge.findOneAndUpdate({ ownerId }, { $inc: { points: gained }, $set: { rank } }, { new: true });',
      ),
      errors: [error('mongoose', 'rank', 7, 15)],
    },
  ],
});
