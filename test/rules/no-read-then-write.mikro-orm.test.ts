// no-read-then-write on MikroORM's unit of work: an entity loaded, a field changed from its own
// value in JavaScript, and written by `em.flush()` or `em.persistAndFlush(entity)`. Quiet next to
// each: a value not derived from the read, a read under a pessimistic lock, the flush in another
// function, a `flush()` in a file that does not use MikroORM, the arithmetic done by the database.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');

const IMPORTS = "import { EntityManager, LockMode, raw } from '@mikro-orm/postgresql';\nimport { Wallet } from './entities';";

/** A wallet service: `read` loads the wallet, `change` changes it, `write` writes it. */
const service = (read: string, change: string, write: string, imports = IMPORTS) =>
  lines(
    imports,
    'export class WalletService {',
    '  constructor(private readonly em: EntityManager, private readonly wallets: any) {}',
    '  async credit(userId: string, amount: number) {',
    `    const wallet = await ${read};`,
    `    ${change}`,
    `    ${write}`,
    '  }',
    '}',
  );

const READ = 'this.em.findOneOrFail(Wallet, { userId })';
const CREDIT = 'wallet.balance += amount;';
const reported = (code: string, column: number) => ({
  code,
  errors: [{ messageId: 'mikroorm' as const, data: { field: 'balance' }, line: 8, column }],
});

ruleTester.run('no-read-then-write (MikroORM)', noReadThenWrite, {
  valid: [
    // a value that does not come from the read
    service(READ, 'wallet.name = name;', 'await this.em.flush();'),
    // read under a pessimistic write lock
    service('this.em.findOneOrFail(Wallet, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE })', CREDIT, 'await this.em.flush();'),
    // the database does the arithmetic
    service(READ, '', "await this.em.nativeUpdate(Wallet, { userId }, { balance: raw('balance + ?', [amount]) });"),
    // a flush of something else in a file without MikroORM
    service(READ, CREDIT, 'await this.em.flush();', "import { Wallet } from './entities';"),
    // the flush in another function: not this change's write
    lines(
      IMPORTS,
      'export async function credit(em: EntityManager, userId: string, amount: number) {',
      '  const wallet = await em.findOneOrFail(Wallet, { userId });',
      '  wallet.balance += amount;',
      '}',
      'export async function commit(em: EntityManager) {',
      '  await em.flush();',
      '}',
    ),
  ],
  invalid: [
    reported(service(READ, CREDIT, 'await this.em.flush();'), 19),
    reported(service(READ, CREDIT, 'await this.em.persistAndFlush(wallet);'), 19),
    // read through an entity repository
    reported(service('this.wallets.findOne({ userId })', 'wallet.balance = wallet.balance + amount;', 'await this.em.flush();'), 19),
    // a pessimistic lock asked for and waived
    reported(service('this.em.findOneOrFail(Wallet, { userId }, { lockMode: LockMode.NONE })', CREDIT, 'await this.em.flush();'), 19),
  ],
});
