import { pool } from '../db';

export async function recalculateFees(merchantId: string): Promise<void> {
  const { rows } = await pool.query('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [merchantId]);
  if (!rows[0].ok) throw new Error(`fees for ${merchantId} are being recalculated`);
  try {
    await pool.query('UPDATE fees SET amount = base * pct WHERE merchant_id = $1', [merchantId]);
  } finally {
    await pool.query('SELECT pg_advisory_unlock(hashtext($1))', [merchantId]);
  }
}
