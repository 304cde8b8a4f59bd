import { sql } from 'drizzle-orm';
import db from '../db';

// Renames a column when an older install still has it: schema DDL through Drizzle's `execute`.
export async function migrateSessionColumn() {
  const old = await db.execute(sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'session'`);
  if (old.rows.length === 0) return;
  await db.execute(sql`ALTER TABLE "session" RENAME COLUMN "active_team_id" TO "active_org_id"`);
}
