// The one pinned connection a migration run holds its advisory lock on, and the context every
// migrator gets.
import type { Logger } from '../logger.js';
import { importOptional, interop } from './optional-import.js';

/** What runMigrations needs from a connection: node-postgres' `Client` has this shape. */
export interface MigrationClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
  /** node-postgres: the backend pid from BackendKeyData (used to spot a pooler). */
  processID?: number | null;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

export interface MigrationContext {
  /** The direct URL the run connected with (POSTGRES_MIGRATE_URL), for migrators that open their own pool. */
  url: string;
  /** The advisory lock key held for the whole run. */
  lockKey: bigint;
  logger: Logger;
}

/** Runs the service's migrations while the lock is held on `client`. */
export type Migrate<C extends MigrationClient = MigrationClient> = (client: C, context: MigrationContext) => Promise<unknown>;

interface PgModule {
  Client: new (config: { connectionString: string; application_name?: string }) => MigrationClient & { connect(): Promise<unknown> };
}

/** Opens one node-postgres `Client` (not a Pool: the lock must stay on one session). */
export async function connectWithPg(url: string): Promise<MigrationClient> {
  const pg = interop<PgModule>(
    await importOptional<unknown>('pg', 'runMigrations', 'pass a `connect(url)` option that opens one pinned connection'),
  );
  const client = new pg.Client({ connectionString: url, application_name: 'replica-guard migrate' });
  await client.connect();
  return client;
}
