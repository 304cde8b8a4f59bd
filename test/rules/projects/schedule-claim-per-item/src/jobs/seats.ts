import { db } from '../db.js';
import { workspaces } from '../schema.js';
import { billing } from '../billing.js';

export async function syncSeats() {
  const all = await db.select().from(workspaces);
  for (const ws of all) await billing.updateSeatCount(ws.customerId, ws.members);
}
