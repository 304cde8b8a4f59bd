import { eq, sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import type { Db } from '../db';
import { transfers } from '../schema';

export class TransferStore {
  constructor(private readonly db: Db) {}

  // The next queued transfer, locked for update in the caller's transaction.
  async nextQueued(trx: Db) {
    const [row] = await trx.select().from(transfers).where(sql`${transfers.state} = 'queued' FOR UPDATE`).limit(1);
    return row;
  }

  // The same read in SQL on the caller's client.
  async nextQueuedOn(client: PoolClient) {
    const { rows } = await client.query("SELECT id, amount FROM transfers WHERE state = 'queued' LIMIT 1 FOR UPDATE");
    return rows[0];
  }

  // No lock: a second replica reads the same row.
  async nextRefund(trx: Db) {
    const [row] = await trx.select().from(transfers).where(eq(transfers.state, 'refund')).limit(1);
    return row;
  }

  markSettled(trx: Db, id: string) {
    return trx.update(transfers).set({ state: 'settled' }).where(eq(transfers.id, id));
  }
}
