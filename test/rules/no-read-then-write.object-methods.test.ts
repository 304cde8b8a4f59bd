// no-read-then-write: a service written as an object of methods. `this.ensureWallet(tx, id)` in one
// method calls its sibling: the row that sibling reads and returns is a read like one loaded in
// place, also from an arrow inside the method (arrows keep the method's `this`). A sibling that
// returns no row, and `this` of a `function` that is no property of the object, are not followed.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** `Payouts.payout` takes the wallet from `this.<loader>` inside a transaction; the write is on line 14. */
const payouts = (loader: string, returned = 'wallet', call = `this.${loader}(tx, userId)`) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export const Payouts = {',
    `  async ${loader}(tx, userId) {`,
    '    let wallet = await tx.wallet.findFirst({ where: { ownerId: userId } });',
    '    if (!wallet) wallet = await tx.wallet.create({ data: { ownerId: userId, balance: 0 } });',
    `    return ${returned};`,
    '  },',
    '  async payout(userId, amount) {',
    '    await prisma.$transaction(async (tx) => {',
    `      const wallet = await ${call};`,
    "      if (wallet.balance < amount) throw new Error('insufficient');",
    '      const left = wallet.balance - amount;',
    '      await tx.wallet.update({ where: { id: wallet.id }, data: { balance: left } });',
    '    });',
    '  },',
    '};',
  );

const lost = [{ messageId: 'prisma' as const, data: { field: 'balance' }, line: 14, column: 23 }];

ruleTester.run('no-read-then-write (object of methods)', noReadThenWrite, {
  valid: [
    // the sibling returns no row it read
    payouts('ensureWallet', '{ balance: 0, id: userId }'),
    // no sibling of that name: nothing to follow, and the name is no loader's
    payouts('ensureWallet', 'wallet', 'this.prepareWallet(tx, userId)'),
  ],
  invalid: [
    { code: payouts('ensureWallet'), errors: lost },
    // a loader's name, followed the same way
    { code: payouts('walletOf'), errors: lost },
  ],
});
