// Kysely: its `Migrator#migrateToLatest()` over a one-connection "pool" that is the pinned client.
import { ReplicaGuardError } from '../../errors.js';
import type { Migrate, MigrationClient } from '../migration-client.js';
import { importOptional } from '../optional-import.js';

interface KyselyModule {
  Kysely: new (config: { dialect: unknown }) => unknown;
  PostgresDialect: new (config: { pool: unknown }) => unknown;
  Migrator: new (config: Record<string, unknown>) => {
    migrateToLatest(): Promise<{ error?: unknown; results?: Array<{ migrationName: string; status: string }> }>;
  };
}

export interface KyselyMigratorOptions {
  /** A Kysely `MigrationProvider` (for example `new FileMigrationProvider({ fs, path, migrationFolder })`). */
  provider: unknown;
  migrationTableName?: string;
  migrationLockTableName?: string;
  migrationTableSchema?: string;
  /** The `kysely` module. Default: loaded on demand. */
  kysely?: KyselyModule;
}

/** A pg.Pool look-alike that always hands out the pinned client and never closes it. */
function pinnedPool(client: MigrationClient): unknown {
  return {
    connect: async () => Object.assign(Object.create(client) as object, { release: () => undefined, query: client.query.bind(client) }),
    end: async () => undefined,
  };
}

export function kyselyMigrator(options: KyselyMigratorOptions): Migrate {
  return async (client) => {
    const { Kysely, PostgresDialect, Migrator } = options.kysely ?? (await importOptional<KyselyModule>('kysely', 'kyselyMigrator'));
    const db = new Kysely({ dialect: new PostgresDialect({ pool: pinnedPool(client) }) });
    const { provider, kysely: _kysely, ...rest } = options;
    const { error } = await new Migrator({ ...rest, db, provider }).migrateToLatest();
    if (error)
      throw new ReplicaGuardError(
        'MIGRATION_FAILED',
        `kysely migration failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
  };
}
