// CI: apply the migrations twice on a scratch database and check that the second run is a no-op.
import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import pg from 'pg';

execFileSync('npx', ['tsx', 'scripts/apply-schema.ts'], { stdio: 'inherit' });
execFileSync('npx', ['tsx', 'scripts/apply-schema.ts'], { stdio: 'inherit' });
const expected = (await readdir('db/migrations')).length;
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const { rows } = await client.query('SELECT count(*)::int AS n FROM schema_migrations');
await client.end();
if (rows[0].n !== expected) throw new Error(`expected ${expected} applied migrations, found ${rows[0].n}`);
