import { applyPendingMigrations } from 'notes-migrator';
import { loadPreferences } from './preferences/store';
import { runMigrations, runPendingMigrations } from './db/sql-files';
import * as tables from './db/tables';
import { pool } from './db/pool';

export async function start() {
  await loadPreferences();
  await runMigrations('./sql');
  await runPendingMigrations(pool, []);
  await tables.runMigrations();
  await tables.applyMigrations([]);
  await applyPendingMigrations();
}
