import { pool } from '../db';

async function addIndex(name: string) {
  await pool.query(`CREATE INDEX IF NOT EXISTS "${name}_idx" ON "card" ("${name}")`);
}

// The DDL sits one call further down, in a helper of this module.
export async function migrateCardIndexes() {
  await addIndex('board_id');
  await addIndex('due_at');
}
