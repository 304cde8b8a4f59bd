import { writeFile } from 'node:fs/promises';
import { pool } from '../db';

// Writes DDL text to a file for the docs: it sends none to the database.
export async function migrateSchemaDump(path: string) {
  const { rows } = await pool.query('SELECT table_name FROM information_schema.tables');
  const text = rows.map((row: { table_name: string }) => `CREATE TABLE ${row.table_name} ();`).join('\n');
  await writeFile(path, text);
}
