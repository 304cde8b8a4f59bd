// no-read-then-write on Meteor's collections (`findOneAsync`, then `updateAsync(id, { $set: { n: doc.n + 1 } })`
// or `upsertAsync`), and on a row's field changed by an amount computed from a helper out of reach taken
// for a loader (`const fx = await this.quoteService.getEurRate()`): the row's read is the one written back,
// not the helper's whole answer. Not reported: Meteor's `$inc`, a compare-and-set filter naming the value
// read, a value computed from the helper's answer alone.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A Meteor export job read by id, then `write` sent (line 6). */
const exportStep = (write: string) =>
  lines(
    "import { Mongo } from 'meteor/mongo';",
    "const Exports = new Mongo.Collection('exports');",
    '// each step updates the export',
    'export async function step(exportId) {',
    '  const job = await Exports.findOneAsync(exportId);',
    `  await Exports.${write};`,
    '}',
  );

/** A wallet credited with an amount converted at a rate a service hands back; `balance` written (line 12). */
const credit = (balance: string) =>
  lines(
    "import { PrismaService } from '../prisma/prisma.service';",
    'export class TopUpService {',
    '  constructor(private readonly prisma: PrismaService, private readonly quoteService: { getEurRate(): Promise<number> }) {}',
    '  async topUp(walletId: string, cents: number) {',
    '    const wallet = await this.prisma.wallet.findUnique({ where: { id: walletId } });',
    "    if (!wallet) throw new Error('no wallet');",
    '    const fx = await this.quoteService.getEurRate();',
    '    const euros = (cents / 100) * fx;',
    '    const before = parseFloat(wallet.balance.toString());',
    '    await this.prisma.$transaction([',
    '      this.prisma.wallet.update({',
    `        where: { id: walletId }, data: { balance: ${balance} },`,
    '      }),',
    '    ]);',
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (Meteor collections, helper amounts)', rule, {
  valid: [
    exportStep('updateAsync(exportId, { $inc: { position: 1 } })'),
    exportStep('updateAsync({ _id: exportId, position: job.position }, { $set: { position: job.position + 1 } })'),
    exportStep("updateAsync(exportId, { $set: { state: 'running' } })"),
    credit('euros'),
  ],
  invalid: [
    {
      code: exportStep('updateAsync(exportId, { $set: { position: job.position + 1, touchedAt: new Date() } })'),
      errors: [{ messageId: 'mongoose', data: { field: 'position' }, line: 6, column: 17 }],
    },
    {
      code: exportStep('upsertAsync({ _id: exportId }, { $set: { retries: job.retries - 1 } })'),
      errors: [{ messageId: 'mongoose', data: { field: 'retries' }, line: 6, column: 17 }],
    },
    {
      code: credit('before + euros'),
      errors: [{ messageId: 'prisma', data: { field: 'balance' }, line: 11, column: 26 }],
    },
  ],
});
