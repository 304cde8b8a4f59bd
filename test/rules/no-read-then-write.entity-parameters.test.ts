// no-read-then-write when the row was loaded by the caller: a method handed an entity
// (`spend(user: UserEntity, amount)`) that writes back a field computed from the entity's own value
// (`{ balance: user.balance - amount }`) — through the library, or through the class's own update
// helper with a transaction after the values (`this.updateUser(user, { … }, tx)`). Not reported: a
// parameter typed otherwise (a plain values type), the database doing the change, or a field of the
// entity written unchanged.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A repository class: `update` writes a wallet by key; `method` is the method under test. */
const repository = (method: string, paramType = 'WalletEntity') =>
  lines(
    "import { eq } from 'drizzle-orm';",
    "import { wallets } from './tables';",
    'export class WalletRepository {',
    '  constructor(private readonly db: Db) {}',
    '  async updateWallet(wallet: WalletEntity, values: Partial<WalletEntity>, tx?: Tx) {',
    '    return (tx ?? this.db).update(wallets).set(values).where(eq(wallets.id, wallet.id)).returning();',
    '  }',
    `  async charge(wallet: ${paramType}, amount: number, tx?: Tx) {`,
    `    ${method}`,
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (entities the caller loaded)', rule, {
  valid: [
    // a values type, not an entity: the caller computed nothing from a row here
    repository('return this.updateWallet(wallet, { credits: wallet.credits - amount }, tx);', 'ChargeInput'),
    // the database does the arithmetic
    repository('return this.db.update(wallets).set({ credits: sql`credits - ${amount}` }).where(eq(wallets.id, wallet.id));'),
    // a field of the entity written unchanged
    repository('return this.updateWallet(wallet, { credits: wallet.credits, note: "charged" }, tx);'),
  ],
  invalid: [
    // through the class's own update helper, a transaction after the values
    {
      code: repository('return this.updateWallet(wallet, { credits: wallet.credits - amount }, tx);'),
      errors: [error('sql', 'credits', 9, 17)],
    },
    // through the library itself
    {
      code: repository('await this.prisma.wallet.update({ where: { id: wallet.id }, data: { credits: wallet.credits - amount } });'),
      errors: [error('prisma', 'credits', 9, 30)],
    },
  ],
});
