// no-read-then-write when a loaded entity's own method changes an amount it holds
// (`ledger.deposit(amount)` as a statement of its own) and the entity is then saved whole
// (`repo.save(ledger)`, a list save `saveAll([a, b])`), or the changed field is handed to a helper
// named for it (`updateTokens(id, ledger.tokens)`). Not reported: a method that hands back a new value
// (`const next = ledger.deposit(n)`), Sequelize's atomic `increment`, an association mixin
// (`addMember(m)`), a method handed a callback, a method not named for an amount, a field handed to a
// helper named for another field.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A service loading a ledger through its repository; `change` changes it (line 7), `write` writes it (line 8). */
const ledgers = (change: string, write = 'await this.ledgerRepository.save(ledger);') =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    '@Injectable()',
    'export class TokenGrants {',
    '  constructor(private readonly ledgerRepository: LedgerRepository) {}',
    '  async grant(memberId: string, tokens: number) {',
    '    const ledger = await this.ledgerRepository.findByMember(memberId);',
    `    ${change}`,
    `    ${write}`,
    '    return ledger;',
    '  }',
    '}',
  );

/** Two ledgers moved between, saved together with `save` (line 10). */
const transfer = (save: string) =>
  lines(
    'export class TokenMoves {',
    '  constructor(private readonly tokenBankService: TokenBankService) {}',
    '  async move(fromId: string, toId: string, tokens: number) {',
    '    const source = await this.tokenBankService.findForMember(fromId);',
    "    if (!source) throw new Error('no ledger');",
    '    const target = await this.tokenBankService.findForMember(toId);',
    '    source.withdraw(tokens);',
    '    target.deposit(tokens);',
    '',
    `    await this.tokenBankService.${save}([source, target]);`,
    '  }',
    '}',
  );

const sequelizeGrant = (change: string) =>
  lines(
    "import { Ledger } from '../models/ledger';",
    'export async function grant(memberId: string, tokens: number) {',
    '  const ledger = await Ledger.findByPk(memberId);',
    `  ${change}`,
    '  await ledger.save();',
    '}',
  );

const lost = (field: string, line: number, column: number) => [{ messageId: 'typeorm', data: { field }, line, column }];

ruleTester.run('no-read-then-write (amount methods of a loaded entity)', rule, {
  valid: [
    // the method hands back a new value: the entity is not changed
    ledgers('const next = ledger.deposit(tokens);'),
    // not named for an amount
    ledgers('ledger.rename(tokens);'),
    // handed a callback: a list's method, not an amount's
    ledgers('ledger.use((entry) => entry.close());'),
    // no argument: nothing handed to add
    ledgers('ledger.charge();'),
    // the changed field handed to a helper named for another field
    ledgers('ledger.deposit(tokens);', 'await this.ledgerRepository.updateOwner(memberId, ledger.tokens);'),
    // Sequelize's instance increment runs in the database
    sequelizeGrant("ledger.increment('tokens', { by: tokens });"),
    // an association mixin inserts a link row
    sequelizeGrant('ledger.addMember(memberId);'),
    // the list saved holds fresh objects only
    lines(
      'export class TokenMoves {',
      '  constructor(private readonly tokenBankService: TokenBankService) {}',
      '  async open(ids: string[]) {',
      '    await this.tokenBankService.saveAll(ids.map((id) => ({ memberId: id, tokens: 0 })));',
      '  }',
      '}',
    ),
  ],
  invalid: [
    { code: ledgers('ledger.deposit(tokens);'), errors: lost('value', 8, 33) },
    { code: ledgers('ledger.topUp(tokens * 2);'), errors: lost('value', 8, 33) },
    // the changed field handed to a helper named for it
    {
      code: ledgers('ledger.spend(tokens);', 'await this.ledgerRepository.updateTokens(memberId, ledger.tokens);'),
      errors: [{ messageId: 'sql', data: { field: 'tokens' }, line: 8, column: 33 }],
    },
    // …also when the field itself was changed in place
    {
      code: ledgers('ledger.tokens -= tokens;', 'await this.ledgerRepository.updateTokens(memberId, ledger.tokens);'),
      errors: [{ messageId: 'sql', data: { field: 'tokens' }, line: 8, column: 33 }],
    },
    // a list save of two changed entities
    { code: transfer('saveAll'), errors: lost('value', 10, 33) },
    { code: transfer('save'), errors: lost('value', 10, 33) },
    { code: sequelizeGrant('ledger.credit(tokens);'), errors: [{ messageId: 'sequelize', data: { field: 'value' }, line: 5, column: 16 }] },
  ],
});
