import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';

const provider = { getMigrations: async () => ({}) };

function queueMigrator() {
  return new Migrator({ db: new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database('queue.db') }) }), provider });
}

function sharedMigrator() {
  return new Migrator({ db: new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) }), provider });
}

export async function runWorker() {
  const local = queueMigrator();
  await local.migrateToLatest();
  const shared = sharedMigrator();
  await shared.migrateToLatest();
}
