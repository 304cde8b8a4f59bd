import Redlock from 'redlock';
import pg from 'pg';

const pool = new pg.Pool();
const redlock = new Redlock([]);

/** Compacts the run history under a lock held across replicas. */
export async function compactRuns(): Promise<void> {
  const lock = await redlock.acquire(['backups:compact'], 60_000);
  try {
    await pool.query("DELETE FROM backup_runs WHERE finished_at < now() - interval '90 days'");
  } finally {
    await lock.release();
  }
}
