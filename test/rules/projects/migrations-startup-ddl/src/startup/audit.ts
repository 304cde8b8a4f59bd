import { pool } from '../db';

// Serialised across replicas: the DDL runs under a transaction-level advisory lock.
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
