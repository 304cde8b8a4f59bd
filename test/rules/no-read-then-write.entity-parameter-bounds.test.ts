// no-read-then-write when a bound is checked on a row the caller loaded (a parameter typed as an
// entity, or with a model type of Prisma's client, also one generated into the project) and the field
// is then changed in the database without that bound: two requests both pass the check. Not reported:
// the bound in the write's filter, a parameter of a plain type, a change in the direction the bound
// does not guard.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A kiosk charging a card its caller loaded (`Card` from `from`): the floor checked on line 5, then `write` on line 6. */
const charge = (from: string, write: string, type = 'Card') =>
  lines(
    "import { db } from '../db';",
    `import type { Card } from '${from}';`,
    'export class Kiosk {',
    `  static async charge(card: ${type}, fare: number) {`,
    "    if (card.tokens < fare) throw new Error('top up first');",
    `    await ${write};`,
    '  }',
    '}',
  );

const DECREMENT = 'db.card.update({ where: { id: card.id }, data: { tokens: { decrement: fare } } })';
const checked = (line: number, column: number) => ({ messageId: 'checkedThenChanged', data: { field: 'tokens' }, line, column });

ruleTester.run('no-read-then-write: a bound checked on an entity the caller loaded', rule, {
  valid: [
    // the bound in the write's filter
    charge(
      '../generated/prisma/client',
      'db.card.updateMany({ where: { id: card.id, tokens: { gte: fare } }, data: { tokens: { decrement: fare } } })',
    ),
    // a type from a module that declares no rows
    charge('./kiosk-types', DECREMENT),
    // an increment after a floor: the bound is not crossed
    charge('../generated/prisma/client', 'db.card.update({ where: { id: card.id }, data: { tokens: { increment: fare } } })'),
  ],
  invalid: [
    // Prisma's client generated into the project
    { code: charge('../generated/prisma/client', DECREMENT), errors: [checked(6, 19)] },
    { code: charge('../../generated/prisma', DECREMENT), errors: [checked(6, 19)] },
    // Prisma's package
    { code: charge('@prisma/client', DECREMENT), errors: [checked(6, 19)] },
  ],
});
