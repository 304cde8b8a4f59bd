// no-read-then-write when a function saves a document it was handed: `card.stamps++` then `await
// card.save()` on a parameter, or a command handler given its documents by the framework
// (`run(ctx, args, data)` changing `data.wallet.coins` and calling `data.wallet.save()`). The
// caller loaded the copy earlier; the save writes it back over what another request wrote since.
// Not reported: a parameter the function never saves, a field set to a value not made from its own,
// another document of the carrier changed than the one saved, a manager saving what it is given.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A module of loyalty helpers: `body` is the body of `stampCard(card, n)`. */
const loyalty = (body: string) =>
  lines(
    "const { Card } = require('../models/card');",
    'async function stampCard(card, n) {',
    `  ${body}`,
    '}',
    'module.exports = { stampCard };',
  );

/** A bot command handed its documents by the framework: `body` is the end of `run`. */
const command = (body: string) =>
  lines(
    "import { BaseCommand } from '../../core/base-command.js';",
    'export default class Buy extends BaseCommand {',
    '  async run(ctx: Context, args: string[], data: BotContext) {',
    '    const cost = Number(args[0]);',
    "    if (cost > data.wallet.coins) return ctx.reply('too poor');",
    `    ${body}`,
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (documents a function saves)', rule, {
  valid: [
    // never saved here: the caller decides what to write
    loyalty('card.stamps += n;\n  return card;'),
    // a value not made from the field's own
    loyalty('card.lastStampedAt = new Date();\n  await card.save();'),
    // the database does the arithmetic
    loyalty('await Card.updateOne({ _id: card._id }, { $inc: { stamps: n } });'),
    // another document of the carrier changed than the one saved
    command('data.wallet.coins -= cost;\n    await data.shop.save();'),
    // a repository handed in saves the object it is given: no document of its own
    lines(
      "import { Repository } from 'typeorm';",
      'export async function open(repo, id) {',
      '  const draft = { id, opens: 0 };',
      '  await repo.save({ ...draft, opens: draft.opens + 1 });',
      '}',
    ),
    // a manager saving what it is handed is no document
    lines(
      "import { Ledger } from './ledger.entity';",
      'export async function book(manager, entry) {',
      '  const ledger = new Ledger();',
      '  ledger.total = entry.amount;',
      '  await manager.save(ledger);',
      '}',
    ),
  ],
  invalid: [
    { code: loyalty('card.stamps++;\n  await card.save();'), errors: [error('sequelize', 'stamps', 4, 14)] },
    {
      code: loyalty('card.stamps = card.stamps + n;\n  await card.save({ validateBeforeSave: false, session });'),
      errors: [error('sequelize', 'stamps', 4, 14)],
    },
    { code: command('data.wallet.coins -= cost;\n    await data.wallet.save();'), errors: [error('sequelize', 'coins', 7, 23)] },
    // The save's name spelled with an escape: the body's text holds no `save` (nor `update`) as written,
    // so a text test before the body's walk must let the backslash through.
    ...['card.sa\\u0076e()', "card['sa\\x76e']()", 'card[`sa\\x76e`]()'].map((save) => ({
      code: loyalty(`card.stamps++;\n  await ${save};\n  await Card.findOneAndUpdate({ _id: card._id }, { $set: { seen: true } });`),
      errors: [error('sequelize', 'stamps', 4, 14)],
    })),
    // …and a string key split by a line continuation, in parentheses.
    {
      code: loyalty(
        "card.stamps++;\n  await card[('sa\\\nve')]();\n  await Card.findOneAndUpdate({ _id: card._id }, { $set: { seen: true } });",
      ),
      errors: [error('sequelize', 'stamps', 4, 15)],
    },
  ],
});
