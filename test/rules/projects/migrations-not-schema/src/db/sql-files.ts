import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pool } from './pool';

// The project's own runner: each `.sql` file of a folder sent to the shared database.
export async function runMigrations(folder: string) {
  for (const file of (await readdir(folder)).sort()) {
    await pool.query(await readFile(join(folder, file), 'utf8'));
  }
}

// Given the database by its caller.
export async function runPendingMigrations(target: { query(text: string): Promise<unknown> }, texts: string[]) {
  for (const text of texts) await target.query(text);
}
