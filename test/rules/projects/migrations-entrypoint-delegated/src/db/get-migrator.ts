import { SlonikMigrator } from '@slonik/migrator';
import { createPool } from 'slonik';

export async function getMigrator() {
  const slonik = await createPool(process.env.POSTGRES_MIGRATE_URL!);
  const migrator = new SlonikMigrator({ migrationsPath: 'migrations', migrationTableName: 'migration', slonik, logger: console });
  return { slonik, migrator };
}
