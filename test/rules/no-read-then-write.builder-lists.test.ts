// no-read-then-write on the rows of a TypeORM query builder's list run (`getMany()`,
// `getRawMany()`): like `find` / `findBy`, a row of the list counts only when a field is written
// back computed from its own value. A value derived into another field (a price filled in from
// the amount) loses nothing; a balance taken down from itself still does.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** Rows of a query builder's `run` changed by `change` in a loop, each saved. */
const builderLoop = (run: string, change: string) =>
  lines(
    "import { Payment } from '../entities/payment';",
    'export async function sweep(rate) {',
    "  const rows = await Payment.createQueryBuilder('payment')",
    "    .where('payment.settledAt IS NULL')",
    `    .${run}();`,
    '  for (const payment of rows) {',
    `    ${change}`,
    '    await payment.save();',
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (query builder lists)', rule, {
  valid: [
    // a field derived from another field of each row
    builderLoop('getMany', 'payment.valueUsd = payment.amount * rate;'),
    builderLoop('getRawMany', 'payment.valueUsd = payment.amount * rate;'),
    // one row (`getOne`) too: a field computed only from other fields of the row is the same whichever replica writes it
    lines(
      "import { Payment } from '../entities/payment';",
      'export async function price(id, rate) {',
      "  const payment = await Payment.createQueryBuilder('payment').where('payment.id = :id', { id }).getOne();",
      '  payment.valueUsd = payment.amount * rate;',
      '  await payment.save();',
      '}',
    ),
  ],
  invalid: [
    // a field taken down from its own value
    {
      code: builderLoop('getMany', 'payment.balance = payment.balance - rate;'),
      errors: [{ messageId: 'typeorm', data: { field: 'balance' }, line: 8, column: 19 }],
    },
  ],
});
