import type { PoolClient } from 'pg';
import { pool } from './db';

async function takeLock(client: PoolClient) {
  await client.query('SELECT pg_advisory_lock(7)');
}

async function migrateSchemaHistory(client: PoolClient) {
  await client.query('CREATE TABLE IF NOT EXISTS "schema_history" ("name" text PRIMARY KEY)');
}

// A runner that serialises its run: the bookkeeping table is created under the lock, at every start all the same.
export async function applyLocked() {
  const client = await pool.connect();
  await takeLock(client);
  await migrateSchemaHistory(client);
}

// The same table created with no lock taken.
export async function applyUnlocked() {
  const client = await pool.connect();
  await migrateSchemaHistory(client);
}
