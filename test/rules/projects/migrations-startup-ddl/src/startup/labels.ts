import { pool } from '../db';

const LABEL_TABLE = `
  CREATE TABLE IF NOT EXISTS "label" (
    "id" text PRIMARY KEY,
    "board_id" text NOT NULL
  )`;

// The statement is held in a constant.
export async function migrateLabelTable() {
  const client = await pool.connect();
  try {
    await client.query(LABEL_TABLE);
  } finally {
    client.release();
  }
}
