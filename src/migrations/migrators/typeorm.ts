// TypeORM: `dataSource.runMigrations()` on a DataSource built for the direct URL. Build it with
// `synchronize: false, migrationsRun: false` — the entrypoint is the only schema writer.
import type { Migrate } from '../migration-client.js';

interface DataSourceLike {
  isInitialized: boolean;
  initialize(): Promise<unknown>;
  runMigrations(options?: { transaction?: 'all' | 'none' | 'each' }): Promise<unknown>;
  destroy(): Promise<void>;
}

export interface TypeormMigratorOptions {
  /** A DataSource, or a function building one from the direct URL. */
  dataSource: DataSourceLike | ((url: string) => DataSourceLike | Promise<DataSourceLike>);
  /** Default `each`: one transaction per migration. */
  transaction?: 'all' | 'none' | 'each';
}

export function typeormMigrator(options: TypeormMigratorOptions): Migrate {
  return async (_client, { url }) => {
    const dataSource = typeof options.dataSource === 'function' ? await options.dataSource(url) : options.dataSource;
    const opened = !dataSource.isInitialized;
    if (opened) await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: options.transaction ?? 'each' });
    } finally {
      if (opened) await dataSource.destroy();
    }
  };
}
