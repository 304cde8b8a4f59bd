// no-read-then-write: an injected data-access object's bare loader given a key held in a name
// (`await this.accountService.get(id)`, its class out of reach) returns a row; a field of it changed
// in JavaScript and written back is a lost update. A key written in place (`get('quota')`), an
// object named for configuration (`this.configService.get(key)`), and a receiver that names no
// data-access object are not guessed at.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

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

const lost = [{ messageId: 'typeorm' as const, data: { field: 'credits' }, line: 8, column: 31 }];

ruleTester.run('no-read-then-write (a service’s bare loader)', noReadThenWrite, {
  valid: [
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
    { code: grant('accountService'), errors: lost },
    { code: grant('accountService', 'load'), errors: lost },
  ],
});
