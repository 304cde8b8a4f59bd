import { pool } from '../db';
import { InsufficientFundsError } from './errors';

export async function withdraw(walletId: string, amount: number): Promise<void> {
  const { rows } = await pool.query('SELECT balance FROM wallets WHERE id = $1', [walletId]);
  if (rows[0].balance < amount) throw new InsufficientFundsError(walletId);
  await pool.query('UPDATE wallets SET balance = $1, updated_at = now() WHERE id = $2', [rows[0].balance - amount, walletId]);
}
