// A Kysely Migrator over whatever database it is given.
import type { Kysely, Migration } from 'kysely';
import { Migrator as KyselyMigrator } from 'kysely';

export class SchemaMigrator<T> extends KyselyMigrator {
  constructor(db: Kysely<T>, migrations: Record<string, Migration>) {
    super({ db, provider: { getMigrations: async () => migrations } });
  }

  async toLatest(): Promise<void> {
    const { error } = await this.migrateToLatest();
    if (error) throw error;
  }
}
