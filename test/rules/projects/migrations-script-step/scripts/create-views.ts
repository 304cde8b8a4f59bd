import { Client } from 'pg';

// Also a step beside `knex migrate:latest`, but it writes schema itself, with no lock.
const client = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });
await client.connect();
await client.query('CREATE VIEW open_incidents AS SELECT * FROM incidents WHERE closed_at IS NULL');
await client.end();
