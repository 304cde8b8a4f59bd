import type { Request, Response } from 'express';
import { pool } from '../db';

export async function topUp(req: Request, res: Response): Promise<void> {
  const { walletId } = req.params;
  const amount = Number(req.body.amount);
  const { rows } = await pool.query('SELECT balance FROM wallets WHERE id = $1', [walletId]);
  if (rows.length === 0) {
    res.status(404).end();
    return;
  }
  const newBalance = rows[0].balance + amount;
  await pool.query('UPDATE wallets SET balance = $1 WHERE id = $2', [newBalance, walletId]);
  res.status(204).end();
}
