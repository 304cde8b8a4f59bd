import { readdir, readFile } from 'node:fs/promises';
import { Client } from 'pg';

const client = new Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
for (const file of (await readdir('db/migrations')).sort()) {
  await client.query(await readFile(`db/migrations/${file}`, 'utf8'));
}
await client.end();
