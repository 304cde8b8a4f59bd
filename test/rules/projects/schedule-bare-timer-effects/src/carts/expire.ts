import { pool } from '../db.js';

export async function closeExpiredCarts(): Promise<void> {
  await pool.query('UPDATE carts SET status = $1 WHERE expires_at < now()', ['closed']);
}
