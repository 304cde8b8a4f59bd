import { pool } from '../db.js';
import { searchIndex } from '../search.js';

export async function reindexChangedProducts() {
  const lock = await pool.query('SELECT pg_try_advisory_lock(hashtext($1)) AS got', ['search-reindex']);
  if (!lock.rows[0].got) {
    return;
  }
  try {
    const { rows } = await pool.query('SELECT * FROM products WHERE indexed_at IS NULL OR updated_at > indexed_at');
    await searchIndex.bulkUpsert(rows);
    await pool.query('UPDATE products SET indexed_at = now() WHERE id = ANY($1)', [rows.map((r) => r.id)]);
  } finally {
    await pool.query('SELECT pg_advisory_unlock(hashtext($1))', ['search-reindex']);
  }
}
