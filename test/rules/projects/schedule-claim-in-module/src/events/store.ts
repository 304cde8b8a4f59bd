import pg from 'pg';

const pool = new pg.Pool();

export interface OutboxEvent {
  id: number;
  topic: string;
  payload: unknown;
}

/** Takes up to `limit` pending events; a concurrent caller skips the rows this one holds. */
export async function claimBatch(limit: number): Promise<OutboxEvent[]> {
  const { rows } = await pool.query<OutboxEvent>(
    `UPDATE outbox SET state = 'sending'
      WHERE id IN (SELECT id FROM outbox WHERE state = 'pending' ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, topic, payload`,
    [limit],
  );
  return rows;
}

/** Reads pending events without taking them. */
export async function pendingEvents(limit: number): Promise<OutboxEvent[]> {
  const { rows } = await pool.query<OutboxEvent>("SELECT id, topic, payload FROM outbox WHERE state = 'pending' LIMIT $1", [limit]);
  return rows;
}

export async function markSent(id: number): Promise<void> {
  await pool.query("UPDATE outbox SET state = 'sent' WHERE id = $1", [id]);
}
