import type { PoolClient } from 'pg';

export async function closeAccountingPeriod(client: PoolClient, periodId: number): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_lock($1)', [periodId]);
    await client.query("UPDATE periods SET status = 'closed' WHERE id = $1 AND status = 'open'", [periodId]);
    await client.query('INSERT INTO period_snapshots (period_id, total) SELECT $1, sum(amount) FROM entries WHERE period_id = $1', [periodId]);
    await client.query('SELECT pg_advisory_unlock($1)', [periodId]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
