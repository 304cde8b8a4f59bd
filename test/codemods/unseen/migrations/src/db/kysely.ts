import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileMigrationProvider, Kysely, Migrator, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import type { Database } from './types';

export const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool() }) });

const migrator = new Migrator({
  db,
  provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(__dirname, 'migrations') }),
});

export async function startDb(): Promise<void> {
  await migrator.migrateToLatest();
}
