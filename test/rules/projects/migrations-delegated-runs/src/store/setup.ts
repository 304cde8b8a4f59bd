import { join } from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { Pool } from 'pg';

const routinesDir = join(__dirname, 'routines');
const fixturesDir = join(__dirname, 'fixtures');

export const openStore = (url?: string): Pool => new Pool({ connectionString: url });

export const prepareDatabase = async (db: Pool): Promise<void> => {
  const files = (await readdir(routinesDir)).filter((name) => name.endsWith('.sql')).sort();
  for (const name of files) {
    await db.query(await readFile(join(routinesDir, name), 'utf8'));
  }
};

export const loadDatabaseFixtures = async (db: Pool): Promise<number> => {
  const files = (await readdir(fixturesDir)).filter((name) => name.endsWith('.json'));
  let count = 0;
  for (const name of files) {
    const rows = JSON.parse(await readFile(join(fixturesDir, name), 'utf8')) as unknown[];
    count += rows.length;
  }
  await db.query('SELECT 1');
  return count;
};
