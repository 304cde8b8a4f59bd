import { pool } from '../db';

export async function backfillLegacyIds(): Promise<void> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock(1234) AS ok');
    if (!rows[0].ok) return;
    await client.query('UPDATE customers SET legacy_id = external_ref WHERE legacy_id IS NULL');
    await client.query('SELECT pg_advisory_unlock(1234)');
  } finally {
    client.release();
  }
}
