import { pool } from '../db';

// Serialised across replicas by a transaction-level advisory lock: each replica still runs it as it starts.
export async function migrateAuditSchema() {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(4242)');
    await client.query('CREATE TABLE IF NOT EXISTS "audit_event" ("id" bigserial PRIMARY KEY, "kind" text NOT NULL)');
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
