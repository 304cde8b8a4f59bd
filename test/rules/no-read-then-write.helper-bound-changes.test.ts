// no-read-then-write when a bound is checked on the value read and the field is then changed in
// the database by a function of the project handed the amount (`if (card.points < cost) return;`
// then `spendPoints(ownerId, cost)`, whose write is `$inc: { points: -amount }`): two requests both
// pass the check and together cross it. Reported at the call, also two functions deep with the
// amount negated on the way. Not reported: the bound in the function's filter, a change that cannot
// cross the bound, a call before the check, another row, a function that writes no field by its parameter.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, test } from 'vitest';
import plugin from '../../rules/index.js';
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A Mongoose card read by its owner, its points checked by `check`, then `spend(…)` called; `helpers` are the file's own functions. */
const redeemPrize = (check: string, call: string, helpers: string[]) =>
  lines(
    "import mongoose from 'mongoose';",
    "const Card = mongoose.model('Card');",
    ...helpers,
    'export async function redeemPrize(ownerId, cost, reply) {',
    '  const card = await Card.findOne({ ownerId });',
    `  ${check}`,
    `  await ${call};`,
    "  reply('done');",
    '}',
  );

const SPEND = [
  'async function spendPoints(holder, amount) {',
  '  await Card.updateOne({ ownerId: holder }, { $inc: { points: -amount } });',
  '}',
];
const GRANT = [
  'async function grantPoints(holder, amount) {',
  '  await Card.updateOne({ ownerId: holder }, { $inc: { points: amount } });',
  '}',
];
const LOW = "if (card.points < cost) return reply('not enough');";

/** A Prisma account handed to a same-file function that hands the amount, negated, to one that increments. */
const buyTicket = (check: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'const updateCreditsBy = async (id, delta) => prisma.account.update({ where: { id }, data: { credits: { increment: delta } } });',
    'const chargeFor = async (account, price) => {',
    '  await updateCreditsBy(account.id, -price);',
    '  await prisma.ledger.create({ data: { accountId: account.id, delta: -price } });',
    '};',
    'export const buyTicket = async (id, price) => {',
    '  const account = await prisma.account.findUnique({ where: { id } });',
    `  ${check}`,
    '  else {',
    '    chargeFor(account, price);',
    '  }',
    '};',
  );

const error = (field: string, line: number, column: number) => ({ messageId: 'checkedThenChanged', data: { field }, line, column });

ruleTester.run('no-read-then-write (a bound checked, then changed by a function handed the amount)', rule, {
  valid: [
    // a floor checked, then the points raised: the floor cannot be crossed
    redeemPrize(LOW, 'grantPoints(ownerId, cost)', GRANT),
    // the bound in the function's filter
    redeemPrize(LOW, 'spendPoints(ownerId, cost)', [
      'async function spendPoints(holder, amount) {',
      '  await Card.updateOne({ ownerId: holder, points: { $gte: amount } }, { $inc: { points: -amount } });',
      '}',
    ]),
    // a check that does not leave
    redeemPrize("if (card.points < cost) reply('low');", 'spendPoints(ownerId, cost)', SPEND),
    // another row: the key is not the read's
    redeemPrize(LOW, 'spendPoints(sponsorId, cost)', SPEND),
    // a function whose write changes the field by a value of its own
    redeemPrize(LOW, 'spendPoints(ownerId, cost)', [
      'async function spendPoints(holder, amount) {',
      '  await Card.updateOne({ ownerId: holder }, { $inc: { points: -1 } });',
      '}',
    ]),
    // a ceiling-only check (too many points), then the points lowered
    redeemPrize("if (card.points > 1000) return reply('capped');", 'spendPoints(ownerId, cost)', SPEND),
    // the amount handed negated: the points are raised
    redeemPrize(LOW, 'spendPoints(ownerId, -cost)', SPEND),
    // two functions deep, the amount handed on not negated: credits raised after a floor
    buyTicket('if (account.credits < price) throw new Error("low");').replace('-price);', 'price);'),
  ],
  invalid: [
    { code: redeemPrize(LOW, 'spendPoints(ownerId, cost)', SPEND), errors: [error('points', 9, 9)] },
    // a ceiling checked, then the points raised by the amount
    {
      code: redeemPrize("if (card.points + cost > 1000) return reply('capped');", 'grantPoints(ownerId, cost)', GRANT),
      errors: [error('points', 9, 9)],
    },
    // the row handed whole, the amount negated one function down, the call in the check's `else`
    { code: buyTicket('if (account.credits < price) throw new Error("low");'), errors: [error('credits', 12, 5)] },
  ],
});

describe('no-read-then-write: a bound checked, then changed by a function of another module', () => {
  test('a loader of another module, the row handed to a function of the file that hands the amount, negated, to an increment', async () => {
    const cwd = join(fileURLToPath(new URL('./projects/', import.meta.url)), 'read-write-bound-helper');
    const eslint = new ESLint({
      cwd,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as never, sourceType: 'module' },
          plugins: { 'replica-guard': plugin as never },
          rules: { 'replica-guard/no-read-then-write': 'error' },
        },
      ],
    });
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const found = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(cwd.length + 1)}:${m.line}:${m.column} ${m.messageId ?? m.message}`),
    );
    // refunds.ts: the bound in the write's filter, and a raise after a floor, are not reported.
    expect(found).toEqual(['src/tickets.ts:13:5 checkedThenChanged']);
  });
});
