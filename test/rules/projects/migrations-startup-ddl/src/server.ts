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

async function ensureDatabaseColumns() {
  await pool.query('ALTER TABLE "board" ADD COLUMN IF NOT EXISTS "archived_at" timestamptz');
}

async function checkDatabase() {
  await pool.query('SELECT 1');
}

export async function runStartupTasks() {
  await checkDatabase();
  await migrateSessionColumn();
  await migrateCardIndexes();
  await migrateLabelTable();
  await ensureDatabaseColumns();
  await migrateCardTitles();
  await migrateThumbnailSchema();
  await migrateAuditSchema();
  await migrateSchemaDump('./docs/schema.sql');
  await migrateDraftSchema();
}

await runStartupTasks();
createServer((_req, res) => res.end('ok')).listen(3000);
