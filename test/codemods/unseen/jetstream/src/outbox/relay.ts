import { connect, StringCodec } from 'nats';
import { pool } from '../db';

const sc = StringCodec();

export async function relayOutbox(): Promise<void> {
  const nc = await connect({ servers: process.env.NATS_URL });
  const js = nc.jetstream();
  const { rows } = await pool.query('SELECT id, subject, payload FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT 500');
  for (const row of rows) {
    await js.publish(row.subject, sc.encode(row.payload));
    await pool.query('UPDATE outbox SET published_at = now() WHERE id = $1', [row.id]);
  }
}
