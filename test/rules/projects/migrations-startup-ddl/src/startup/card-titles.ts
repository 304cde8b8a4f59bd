import { pool } from '../db';

// A data move: rows rewritten, no schema touched.
export async function migrateCardTitles() {
  await pool.query(`UPDATE "card" SET "title" = trim("title") WHERE "title" <> trim("title")`);
}
