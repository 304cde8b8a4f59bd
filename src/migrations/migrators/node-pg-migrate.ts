// node-pg-migrate: its runner on the pinned connection itself, with its own lock off (`noLock`),
// because the run already holds the service's advisory lock on that very session.
import type { Migrate } from '../migration-client.js';
import { importOptional } from '../optional-import.js';
import { writeLog } from '../../logger.js';

type Runner = (options: Record<string, unknown>) => Promise<unknown>;

export interface NodePgMigrateMigratorOptions {
  /** Migrations directory (or directories). */
  dir: string | string[];
  /** Default `pgmigrations`. */
  migrationsTable?: string;
  /** `runner` from node-pg-migrate. Default: loads `node-pg-migrate`. */
  runner?: Runner;
  /** Any other runner option (`schema`, `checkOrder`, `decamelize`, `useGlob`…). `noLock` and `dbClient` are always set. */
  runnerOptions?: Record<string, unknown>;
}

export function nodePgMigrateMigrator(options: NodePgMigrateMigratorOptions): Migrate {
  return async (client, { logger }) => {
    const runner = options.runner ?? (await importOptional<{ runner: Runner }>('node-pg-migrate', 'nodePgMigrateMigrator')).runner;
    await runner({
      direction: 'up',
      count: Infinity,
      migrationsTable: options.migrationsTable ?? 'pgmigrations',
      logger: {
        debug: () => undefined,
        info: (m: string) => writeLog(logger, 'info', `migrate: ${m}`),
        warn: (m: string) => writeLog(logger, 'warn', `migrate: ${m}`),
        error: (m: string) => writeLog(logger, 'error', `migrate: ${m}`),
      },
      ...options.runnerOptions,
      dir: options.dir,
      dbClient: client,
      noLock: true,
    });
  };
}
