import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { accounts } from '../schema';

export class BalanceStore {
  constructor(private readonly db: Db) {}

  debit(trx: Db, id: string, amount: number) {
    return trx.update(accounts).set({ balance: sql`${accounts.balance} - ${amount}` }).where(eq(accounts.id, id));
  }

  credit(trx: Db, id: string, amount: number) {
    return trx.update(accounts).set({ balance: sql`${accounts.balance} + ${amount}` }).where(eq(accounts.id, id));
  }
}
