// no-read-then-write when the largest stored number is cached per key in a map the class keeps
// (`this.numbers[guildId]`, filled through the instance's own handle too) and handed out plus one,
// the maximum read from an aggregate destructured a few levels deep (`{ _max: { number: max } }`).
// Not reported: a map filled from no read, or from a count.
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

/** Seat numbers per hall, cached in `this.seats`: `fill` gives the hall's entry its first value. */
const seats = (...fill: string[]) =>
  lines(
    'export class SeatBook {',
    '  constructor(app) {',
    '    this.app = app;',
    '    this.seats = {};',
    '  }',
    '  async nextSeat(hallId) {',
    '    if (this.seats[hallId] === undefined) {',
    ...fill.map((l) => `      ${l}`),
    '    }',
    '    this.seats[hallId] += 1;',
    '    return this.seats[hallId];',
    '  }',
    '  async book(hallId, guest) {',
    '    const seat = await this.nextSeat(hallId);',
    '    await this.app.prisma.booking.updateMany({ where: { hallId, guest }, data: { seat } });',
    '  }',
    '}',
  );

const AGGREGATE = 'const { _max: { seat: top } } = await this.app.prisma.booking.aggregate({ _max: { seat: true }, where: { hallId } });';

jsRuleTester.run('no-read-then-write (a maximum cached per key in a map of the class)', rule, {
  valid: [
    seats('this.seats[hallId] = 0;'),
    seats('const total = await this.app.prisma.booking.count({ where: { hallId } });', 'this.seats[hallId] = total;'),
  ],
  invalid: [
    { code: seats(AGGREGATE, 'this.seats[hallId] = top ?? 0;'), errors: [error('seats', 11, 5)] },
    // filled through the instance's own handle
    { code: seats(AGGREGATE, 'this.app.book.seats[hallId] = top ?? 0;'), errors: [error('seats', 11, 5)] },
  ],
});
