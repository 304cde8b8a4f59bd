// One SQLite file per host: the migrator is built on it.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { SchemaMigrator } from './migrator.js';
import { migrations } from './local-migrations.js';

export async function openLocalStore(path: string) {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) });
  await new SchemaMigrator(db, migrations).toLatest();
  return db;
}
