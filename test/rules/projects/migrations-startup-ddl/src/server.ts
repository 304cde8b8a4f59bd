import { createServer } from 'node:http';
import { pool } from './db';
import { migrateSessionColumn } from './startup/session-column';
import { migrateCardIndexes } from './startup/indexes';
import { migrateLabelTable } from './startup/labels';
import { migrateCardTitles } from './startup/card-titles';
import { migrateThumbnailSchema } from './startup/thumbnail-cache';
import { migrateAuditSchema } from './startup/audit';
import { migrateSchemaDump } from './startup/schema-dump';
import { migrateDraftSchema } from './startup/drafts';

async function migrateBoardColumns() {
  await pool.query('ALTER TABLE "board" ADD COLUMN IF NOT EXISTS "archived_at" timestamptz');
}

// Named for database set-up or views: its DDL is not read (a request's view, a reset script, a
// device's own file). Named for a lock and a migration: a locked run is still a run at every start.
async function createDbView(name: string) {
  await pool.query(`CREATE OR REPLACE VIEW "${name}" AS SELECT * FROM "card"`);
}

async function tryAcquireLockAndMigrate() {
  await pool.query('CREATE TABLE IF NOT EXISTS "board_lock" ("id" int PRIMARY KEY)');
}

async function checkDatabase() {
  await pool.query('SELECT 1');
}

export async function runStartupTasks() {
  await checkDatabase();
  await migrateSessionColumn();
  await migrateCardIndexes();
  await migrateLabelTable();
  await migrateBoardColumns();
  await migrateCardTitles();
  await migrateThumbnailSchema();
  await migrateAuditSchema();
  await migrateSchemaDump('./docs/schema.sql');
  await migrateDraftSchema();
  await createDbView('open_cards');
  await tryAcquireLockAndMigrate();
}

await runStartupTasks();
createServer((_req, res) => res.end('ok')).listen(3000);
