import { Pool } from 'pg';

const pool = new Pool();

export async function sendPending(send: (row: { id: string }) => Promise<void>) {
  const { rows } = await pool.query("select * from outbox where status = 'pending' limit 50");
  for (const row of rows) {
    await send(row);
    await pool.query("update outbox set status = 'sent' where id = $1", [row.id]);
  }
}
