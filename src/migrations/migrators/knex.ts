// knex: `knex.migrate.latest()` on its own one-connection pool to the direct URL, while the
// advisory lock is held on the pinned connection. knex's own lock table stays as a second line.
import type { Migrate } from '../migration-client.js';
import { importOptional, interop } from '../optional-import.js';

interface KnexInstance {
  migrate: { latest(config?: Record<string, unknown>): Promise<unknown> };
  destroy(): Promise<void>;
}
type KnexFactory = (config: Record<string, unknown>) => KnexInstance;

export interface KnexMigratorOptions {
  /** The `knex` function (`import knex from 'knex'`), or an instance already built on POSTGRES_MIGRATE_URL. Default: loads `knex`. */
  knex?: KnexFactory | KnexInstance;
  /** knex's `migrations` config (`directory`, `tableName`, `loadExtensions`…). */
  migrations?: Record<string, unknown>;
  /** knex client name. Default `pg`. */
  client?: string;
}

export function knexMigrator(options: KnexMigratorOptions = {}): Migrate {
  return async (_client, { url }) => {
    const given = options.knex ?? interop<KnexFactory>(await importOptional('knex', 'knexMigrator'));
    if (typeof given !== 'function') {
      await given.migrate.latest(options.migrations);
      return;
    }
    const db = given({ client: options.client ?? 'pg', connection: url, pool: { min: 0, max: 1 }, migrations: options.migrations });
    try {
      await db.migrate.latest();
    } finally {
      await db.destroy();
    }
  };
}
