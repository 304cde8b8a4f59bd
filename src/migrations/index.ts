// Migrations for a service's migrate entrypoint (`node dist/cmd/migrate.js && node dist/server.js`).
export { runMigrations, MIGRATE_URL_VARIABLE, type RunMigrationsOptions, type MigrationRunResult } from './run-migrations.js';
export { migrationLockKey } from './lock-key.js';
export type { Migrate, MigrationClient, MigrationContext } from './migration-client.js';
export { knexMigrator, type KnexMigratorOptions } from './migrators/knex.js';
export { nodePgMigrateMigrator, type NodePgMigrateMigratorOptions } from './migrators/node-pg-migrate.js';
export { typeormMigrator, type TypeormMigratorOptions } from './migrators/typeorm.js';
export { drizzleMigrator, type DrizzleMigratorOptions } from './migrators/drizzle.js';
export { kyselyMigrator, type KyselyMigratorOptions } from './migrators/kysely.js';
export { umzugMigrator } from './migrators/umzug.js';
export { prismaMigrator, type PrismaMigratorOptions } from './migrators/prisma.js';
