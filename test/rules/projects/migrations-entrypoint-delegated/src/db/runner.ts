import { Client } from 'pg';
import { readdir, readFile } from 'node:fs/promises';

const LOCK_KEY = 7_204_113;

async function holdingLock<T>(client: Client, work: () => Promise<T>): Promise<T> {
  await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
  try {
    return await work();
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
  }
}

export async function runPendingMigrations(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await holdingLock(client, async () => {
      for (const file of (await readdir('sql')).sort()) await client.query(await readFile(`sql/${file}`, 'utf8'));
    });
  } finally {
    await client.end();
  }
}
