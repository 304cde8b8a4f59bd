import { pool } from './db.js';

export async function findItem(id: string) {
  const { rows } = await pool.query('SELECT id, stock, label FROM items WHERE id = $1', [id]);
  return rows[0];
}

export async function updateItemField(id: string, field: string, value: unknown): Promise<void> {
  await pool.query(`UPDATE items SET ${field} = $1 WHERE id = $2`, [value, id]);
}
