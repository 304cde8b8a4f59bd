import { Pool } from 'pg';

const pool = new Pool();

export async function withExport(work: () => Promise<void>) {
  const { rows } = await pool.query('select pg_try_advisory_lock(42) as locked');
  if (!rows[0].locked) return;
  try {
    await work();
  } finally {
    await pool.query('select pg_advisory_unlock(42)');
  }
}

export async function inTransaction(client: Pool) {
  await client.query('begin');
  await client.query('select pg_advisory_xact_lock(7)');
  await client.query('commit');
}
