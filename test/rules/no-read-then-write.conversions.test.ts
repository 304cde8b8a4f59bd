// no-read-then-write through conversions of the value read: `.toString()` and `parseFloat(…)` kept in
// locals (`const old = parseFloat(wallet.amount.toString()); wallet.amount = parseFloat((old +
// change).toString())`) carry the read as `Number(…)` does; a method named like an object's own
// (`x.toString()`) is never taken for a read of a model named `x`; a number joined to an empty
// string (`'' + balance`, `balance + ''`) is written as `String(balance)` is. Not reported: a
// converted value written to another field, a value from the request converted, a field read and
// joined to an empty string unchanged.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A TypeORM wallet handler: `body` between the read and the save. */
const adjust = (...body: string[]) =>
  lines(
    "import { Repository } from 'typeorm';",
    'export class AdjustBalance {',
    '  constructor(private readonly wallets: Repository<Wallet>) {}',
    '  async run(id: string, change: number) {',
    '    const wallet = await this.wallets.findOne({ where: { id } });',
    ...body.map((l) => `    ${l}`),
    '    return this.wallets.save(wallet);',
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (conversions of the value read)', rule, {
  valid: [
    adjust('wallet.display = wallet.amount.toString();'),
    adjust('const next = parseFloat(change.toString());', 'wallet.lastChange = next;'),
    adjust("wallet.amount = '' + wallet.amount;"),
    adjust("wallet.amount = '' + change;"),
  ],
  invalid: [
    {
      code: adjust(
        'const old = parseFloat(wallet.amount.toString());',
        'const next = old + parseFloat(change.toString());',
        'wallet.amount = parseFloat(next.toString());',
      ),
      errors: [{ messageId: 'typeorm', line: 9, column: 25 }],
    },
    {
      code: adjust('const next = wallet.amount - change;', 'wallet.amount = next.toString();'),
      errors: [{ messageId: 'typeorm', line: 8, column: 25 }],
    },
    {
      code: adjust('const next = parseFloat(wallet.amount) - change;', "wallet.amount = '' + next;"),
      errors: [{ messageId: 'typeorm', line: 8, column: 25 }],
    },
    {
      code: adjust("wallet.amount = (parseFloat(wallet.amount) + change) + '';"),
      errors: [{ messageId: 'typeorm', line: 7, column: 25 }],
    },
  ],
});
