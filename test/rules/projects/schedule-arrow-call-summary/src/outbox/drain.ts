import { pool } from '../db.js';

export async function relayOutbox(): Promise<void> {
  await pool.query('UPDATE outbox SET sent_at = now() WHERE sent_at IS NULL');
}
