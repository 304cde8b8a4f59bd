import { Client } from 'pg';
import { readdir, readFile } from 'node:fs/promises';

export async function runMigrationFiles(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  for (const file of (await readdir('sql')).sort()) await client.query(await readFile(`sql/${file}`, 'utf8'));
  await client.end();
}
