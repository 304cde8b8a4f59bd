import pg from 'pg';

const pool = new pg.Pool();

export async function expireRun(id: string): Promise<void> {
  await pool.query("UPDATE runs SET status = 'expired' WHERE id = $1", [id]);
}
