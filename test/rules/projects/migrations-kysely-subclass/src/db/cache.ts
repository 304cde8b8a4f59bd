import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { TenantMigrator } from './tenant-migrator.js';

export function openCache(file: string) {
  const cache = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  return new TenantMigrator('./migrations/cache', cache).latest().then(() => cache);
}
