import { db } from '../database';

export async function migrateDatabase() {
  await db.migrate.latest();
}
