// no-read-then-write: a row an injected service's loader returns, with an empty literal for a
// missing row (`(await this.wallets.getWalletBy(…)) || {}`), destructured and written back with
// its balance changed in JavaScript, is a lost update like the row kept whole. A fallback that is
// a value of its own (`|| defaults`), or a `&&`, is not the row.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** `spend` loads the wallet through the injected service, `loaded` around the call; the update is on line 11. */
const spend = (loaded: (call: string) => string) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { Repository } from 'typeorm';",
    "import { WalletService } from '../wallet/wallet.service';",
    '@Injectable()',
    'export class PurchaseService {',
    '  constructor(private walletRepository: Repository<Wallet>, private walletService: WalletService) {}',
    '  async spend(userId: number, amount: number) {',
    `    const { balance, id: walletId } = ${loaded('await this.walletService.getWalletBy({ where: { userId } })')};`,
    "    if (balance < amount) throw new Error('insufficient funds');",
    '    const left = balance - amount;',
    '    await this.walletRepository.update(walletId, { balance: left });',
    '  }',
    '}',
  );

const lost = [{ messageId: 'typeorm' as const, data: { field: 'balance' }, line: 11, column: 33 }];

ruleTester.run('no-read-then-write (a loaded row with an empty fallback)', noReadThenWrite, {
  valid: [
    // a fallback value of its own, or `&&`: not the row as loaded
    spend((call) => `(${call}) || defaults`),
    spend((call) => `(${call}) && emptyWallet`),
  ],
  invalid: [
    { code: spend((call) => `(${call}) || {}`), errors: lost },
    { code: spend((call) => `(${call}) ?? {}`), errors: lost },
    { code: spend((call) => call), errors: lost },
  ],
});
