// The PostgreSQL lease store: the same LeaseStore as Redis, over one table, for services that
// have PostgreSQL and no Redis. Every operation is one autocommit statement (./postgres/
// lease-statements.ts), so it works directly and through PgBouncer in transaction pooling, and
// with `pg` (Pool, Client) or postgres.js — recognised by shape, neither a dependency.
import { InvalidArgumentError, UnknownClientError } from '../errors.js';
import type { LeaseStore } from './store.js';
import { isPgLike, pgSqlClient, type PgQueryable } from './postgres/clients/pg-client.js';
import { isPostgresJsLike, postgresJsSqlClient, type PostgresJsLike } from './postgres/clients/postgres-js-client.js';
import type { SqlClient } from './postgres/clients/sql-client.js';
import { leaseStatements } from './postgres/lease-statements.js';
import { leaseTableName } from './postgres/lease-table-name.js';
import { postgresLeaseError } from './postgres/postgres-error.js';

export { DEFAULT_LEASE_TABLE } from './postgres/lease-table-name.js';
export { leaseTableDDL, leaseTableStatements, dropLeaseTableStatements } from './postgres/lease-table-ddl.js';
export * from './postgres/lease-table-migrations.js';

/** A `pg` Pool / Client / PoolClient, or a postgres.js `sql` instance. */
export type PostgresClientLike = PgQueryable | PostgresJsLike;

export interface PostgresLeaseStoreOptions {
  /** The lease table, `table` or `schema.table` (default `replica_guard_leases`). */
  tableName?: string;
  /**
   * How many expired rows of other keys a sweeping acquire deletes in its own statement (default
   * 32; 0 turns the cleanup off).
   */
  sweepLimit?: number;
  /**
   * One acquire in this many (counted per store) carries the sweep (default 8). Each claim adds
   * at most one row, so while `sweepLimit >= sweepEvery` the table stays at about its live
   * leases, and most claims skip the sweep's cost.
   */
  sweepEvery?: number;
}

/**
 * The longest key the store accepts, in UTF-8 bytes (prefix included). A btree index entry must
 * fit in a third of an 8 kB page (about 2700 bytes); 2000 leaves room for the tuple header.
 */
export const MAX_POSTGRES_LEASE_KEY_BYTES = 2000;

const DEFAULT_SWEEP_LIMIT = 32;
const DEFAULT_SWEEP_EVERY = 8;
const MAX_SWEEP_LIMIT = 1000;

/** True for the client shapes `createPostgresLeaseStore` accepts. */
export function isPostgresClientLike(client: unknown): client is PostgresClientLike {
  return isPostgresJsLike(client) || isPgLike(client);
}

export function createPostgresLeaseStore(client: PostgresClientLike, options: PostgresLeaseStoreOptions = {}): LeaseStore {
  const sql = sqlClientFor(client);
  const table = leaseTableName(options.tableName);
  const sweepLimit = options.sweepLimit ?? DEFAULT_SWEEP_LIMIT;
  if (!Number.isInteger(sweepLimit) || sweepLimit < 0 || sweepLimit > MAX_SWEEP_LIMIT) {
    throw new InvalidArgumentError(`sweepLimit must be an integer from 0 to ${MAX_SWEEP_LIMIT}, got ${String(sweepLimit)}`);
  }
  const sweepEvery = options.sweepEvery ?? DEFAULT_SWEEP_EVERY;
  if (!Number.isInteger(sweepEvery) || sweepEvery < 1) {
    throw new InvalidArgumentError(`sweepEvery must be a positive integer, got ${String(sweepEvery)}`);
  }
  const statements = leaseStatements(table, sweepLimit);
  let acquires = 0;
  // Cleared when the table predates the `fence` column (its migration was not re-run yet):
  // leases are then taken without a token instead of failing closed.
  let fenceColumn = true;

  async function run(operation: string, text: string, key: string, values: unknown[], signal?: AbortSignal) {
    try {
      return await sql.run(text, values, signal);
    } catch (error) {
      // An abort is the guards' own timeout: hand its reason back unchanged.
      if (signal?.aborted && error === signal.reason) throw error;
      throw postgresLeaseError(error, operation, key, table);
    }
  }

  return {
    kind: 'postgres',
    async acquire(key, owner, ttlMs, signal) {
      assertStorableKey(key);
      const text = acquires++ % sweepEvery === 0 ? statements.acquireAndSweep : statements.acquire;
      const result = await run('acquire', text, key, [key, owner, ttlMs], signal);
      return result.rowCount === 1;
    },
    async acquireFenced(key, owner, ttlMs, signal) {
      assertStorableKey(key);
      if (!fenceColumn) return (await this.acquire(key, owner, ttlMs, signal)) ? 0 : null;
      const text = acquires++ % sweepEvery === 0 ? statements.acquireFencedAndSweep : statements.acquireFenced;
      let result;
      try {
        result = await run('acquire', text, key, [key, owner, ttlMs], signal);
      } catch (error) {
        if (!isMissingFenceColumn(error)) throw error;
        fenceColumn = false;
        return (await this.acquire(key, owner, ttlMs, signal)) ? 0 : null;
      }
      const row = result.rows[0];
      return row ? Number(row.fence) : null;
    },
    async keep(key, owner, ttlMs, signal) {
      const result = await run('keep', statements.keep, key, [key, owner, ttlMs], signal);
      const row = result.rows[0];
      return row ? (row.held === true ? 'held' : 'restored') : 'lost';
    },
    async extend(key, owner, ttlMs, signal) {
      const result = await run('extend', statements.extend, key, [key, owner, ttlMs], signal);
      return result.rowCount === 1;
    },
    async release(key, owner, signal) {
      const result = await run('release', statements.release, key, [key, owner], signal);
      return result.rows[0]?.live === true;
    },
  };
}

/** Keys PostgreSQL cannot store are the caller's error, not an outage: refused before any statement. */
function assertStorableKey(key: string): void {
  if (key.includes('\0')) {
    throw new InvalidArgumentError(
      `PostgreSQL lease store: the key ${JSON.stringify(key)} contains a NUL character, which PostgreSQL text cannot hold`,
    );
  }
  // Fast path: a UTF-8 character is at most 3 bytes per UTF-16 code unit.
  if (key.length * 3 <= MAX_POSTGRES_LEASE_KEY_BYTES) return;
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes > MAX_POSTGRES_LEASE_KEY_BYTES) {
    throw new InvalidArgumentError(
      `PostgreSQL lease store: the key "${key.slice(0, 40)}…" is ${bytes} bytes (prefix included); at most ${MAX_POSTGRES_LEASE_KEY_BYTES} fit in the lease table's index`,
    );
  }
}

/** 42703 undefined_column on `fence`: a lease table created before fencing tokens. */
function isMissingFenceColumn(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (cause as { code?: unknown } | null)?.code;
  return code === '42703' && /fence/.test(String((cause as { message?: unknown }).message));
}

function sqlClientFor(client: unknown): SqlClient {
  // postgres.js first: its `sql` is a function, which `isPgLike` (an object with query) rejects anyway.
  if (isPostgresJsLike(client)) return postgresJsSqlClient(client);
  if (isPgLike(client)) return pgSqlClient(client);
  throw new UnknownClientError(
    'createPostgresLeaseStore needs a pg Pool/Client (an object with query()) or a postgres.js sql instance (a function with unsafe()); ' +
      `got ${client === null ? 'null' : typeof client}`,
  );
}
