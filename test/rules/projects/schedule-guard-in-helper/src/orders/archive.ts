import { db } from '../lib/db';

export async function archiveOrders(): Promise<void> {
  await db.query("UPDATE orders SET archived = true WHERE created_at < now() - interval '1 year'");
}
