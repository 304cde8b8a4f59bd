// Drizzle: drizzle-orm's node-postgres `migrate()` on the pinned connection itself.
import type { Migrate } from '../migration-client.js';
import { importOptional } from '../optional-import.js';

type DrizzleFactory = (client: unknown) => unknown;
type DrizzleMigrate = (db: unknown, config: Record<string, unknown>) => Promise<void>;

export interface DrizzleMigratorOptions {
  /** The folder drizzle-kit generated (with `meta/_journal.json`). */
  migrationsFolder: string;
  migrationsTable?: string;
  migrationsSchema?: string;
  /** `drizzle` from `drizzle-orm/node-postgres`. Default: loaded on demand. */
  drizzle?: DrizzleFactory;
  /** `migrate` from `drizzle-orm/node-postgres/migrator`. Default: loaded on demand. */
  migrate?: DrizzleMigrate;
}

export function drizzleMigrator(options: DrizzleMigratorOptions): Migrate {
  return async (client) => {
    const drizzle =
      options.drizzle ?? (await importOptional<{ drizzle: DrizzleFactory }>('drizzle-orm/node-postgres', 'drizzleMigrator')).drizzle;
    const migrate =
      options.migrate ??
      (await importOptional<{ migrate: DrizzleMigrate }>('drizzle-orm/node-postgres/migrator', 'drizzleMigrator')).migrate;
    const config: Record<string, unknown> = { migrationsFolder: options.migrationsFolder };
    if (options.migrationsTable) config.migrationsTable = options.migrationsTable;
    if (options.migrationsSchema) config.migrationsSchema = options.migrationsSchema;
    await migrate(drizzle(client), config);
  };
}
