import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from './local-migrations.js';

export async function openCache(path: string) {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) });
  await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  return db;
}
