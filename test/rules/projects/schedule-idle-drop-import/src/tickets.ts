import type { Pool } from 'pg';

/** Closes support tickets nobody touched for a month: rows of a shared table. */
export async function closeStale(db: Pool): Promise<void> {
  await db.query("UPDATE tickets SET status = 'closed' WHERE status = 'open' AND updated_at < now() - interval '30 days'");
}
