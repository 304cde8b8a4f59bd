import { pool } from '../db';

export async function applyMonthlyInterest(accountId: string, rate: number): Promise<void> {
  const { rows } = await pool.query('SELECT balance FROM savings_accounts WHERE id = $1', [accountId]);
  const balance = rows[0].balance * (1 + rate / 12);
  await pool.query('UPDATE savings_accounts SET balance = $1 WHERE id = $2', [balance, accountId]);
}
