import knex from 'knex';
import { pool } from '../db';
import { withAdvisoryLock } from '../lock';

const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });

// The upgrade job: hand-written DDL and the migrator, each under the job's own lock.
export async function migrateToCurrentVersion(): Promise<void> {
  await withAdvisoryLock(77, async () => {
    await pool.query('ALTER TABLE "board" ADD COLUMN IF NOT EXISTS "currency" text');
  });
}

export async function upgradeSchema(): Promise<void> {
  await withAdvisoryLock(78, async () => {
    await store.migrate.latest();
  });
}
