// The same kind of subclass, built on the shared PostgreSQL database by one module and on a local file by another.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileMigrationProvider, Migrator, type Kysely } from 'kysely';

export class TenantMigrator extends Migrator {
  constructor(
    folder: string,
    public readonly db: Kysely<unknown>,
  ) {
    super({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder: folder }) });
  }

  latest() {
    return this.migrateToLatest();
  }
}
