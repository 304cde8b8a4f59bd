// no-read-then-write: rows read through an injected service whose class is out of reach. A row its
// loader returns with an empty literal for a missing row (`(await this.wallets.getWalletBy(…)) || {}`),
// destructured and written back with its balance changed in JavaScript, is a lost update like the
// row kept whole; a fallback that is a value of its own (`|| defaults`), or a `&&`, is not the row.
// A data-access object's bare loader given a key held in a name (`await this.accountService.get(id)`)
// returns a row too; a key written in place (`get('default')`), an object named for configuration
// (`this.configService.get(key)`), and a receiver that names no data-access object are not guessed at.
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

const lostBalance = [{ messageId: 'typeorm' as const, data: { field: 'balance' }, line: 11, column: 33 }];

/** `grant` reads through `receiver.method(key)` and writes the credits back (line 8). */
const grant = (receiver: string, method = 'get', key = 'accountId') =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { AccountService } from './account.service';",
    '@Injectable()',
    'export class RewardService {',
    '  constructor(private readonly accountService: AccountService, private readonly configService: AccountService, private readonly accounts: AccountService) {}',
    '  async grant(accountId: string, bonus: number) {',
    `    const account = await this.${receiver}.${method}(${key});`,
    '    await this.accountService.update(accountId, { credits: account.credits + bonus });',
    '  }',
    '}',
  );

const lostCredits = [{ messageId: 'typeorm' as const, data: { field: 'credits' }, line: 8, column: 31 }];

ruleTester.run('no-read-then-write (rows read through an injected service)', noReadThenWrite, {
  valid: [
    // a fallback value of its own, or `&&`: not the row as loaded
    spend((call) => `(${call}) || defaults`),
    spend((call) => `(${call}) && emptyWallet`),
    // a key written in place: a lookup of a constant
    grant('accountService', 'get', "'default'"),
    // an object named for configuration
    grant('configService'),
    // a receiver that names no data-access object
    grant('accounts'),
    // a method that is no loader
    grant('accountService', 'ensure'),
  ],
  invalid: [
    { code: spend((call) => `(${call}) || {}`), errors: lostBalance },
    { code: spend((call) => `(${call}) ?? {}`), errors: lostBalance },
    { code: spend((call) => call), errors: lostBalance },
    { code: grant('accountService'), errors: lostCredits },
    { code: grant('accountService', 'load'), errors: lostCredits },
  ],
});
