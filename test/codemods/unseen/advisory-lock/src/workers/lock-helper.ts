import { pool } from '../db';

export async function withGlobalLock(key: number, fn: () => Promise<void>): Promise<boolean> {
  const { rows } = await pool.query('SELECT pg_try_advisory_lock($1) AS ok', [key]);
  if (!rows[0].ok) return false;
  try {
    await fn();
    return true;
  } finally {
    await pool.query('SELECT pg_advisory_unlock($1)', [key]);
  }
}
