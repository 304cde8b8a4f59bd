// Fenced writes: a lease's fencing token makes PostgreSQL itself refuse the write of a holder
// that was paused (GC, a blocked event loop, a frozen VM) past its lease while another replica
// took over — the case a lease alone (Redlock included) cannot prevent.
//
// The pattern, in one statement when the row you write carries the token:
//
//   UPDATE invoices SET status = 'sent', fence = $token WHERE id = $id AND fence <= $token
//
// (0 rows: a newer holder already wrote; stop.) `withFence` is the same rule for any writes: it
// records the highest token per resource in a small table and runs `work` in the transaction
// that checked it, so every write in `work` commits only if no newer token was seen.
import { FencingTokenRejectedError, InvalidArgumentError, UnknownClientError } from './errors.js';
import { isPgLike } from './lease/postgres/clients/pg-client.js';
import { isPostgresJsLike } from './lease/postgres/clients/postgres-js-client.js';
import { assertKey, show } from './guards/validate.js';

export const DEFAULT_FENCE_TABLE = 'replica_guard_fences';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function fenceTable(tableName: unknown): string {
  const parts = typeof tableName === 'string' ? tableName.split('.') : [];
  if (parts.length === 0 || parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new InvalidArgumentError(
      `invalid fence table name ${show(tableName)}: expected "table" or "schema.table", each part a plain identifier (letters, digits, _; at most 63 characters)`,
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/** The DDL of the fence table `withFence` uses, for the service's migrate entrypoint (idempotent). */
export function fenceTableStatements(tableName: string = DEFAULT_FENCE_TABLE): string[] {
  return [`CREATE TABLE IF NOT EXISTS ${fenceTable(tableName)} (\n  resource text PRIMARY KEY,\n  token bigint NOT NULL\n)`];
}

export interface FenceOptions {
  /** What the writes protect (`invoice:42`, `search-index`): tokens are compared per resource. */
  resource: string;
  /** The fencing token runExclusive/runOnce passed to `fn`. */
  token: number | undefined;
  /** The fence table (default `replica_guard_fences`), created by `fenceTableStatements()`. */
  tableName?: string;
}

interface PgTransactionClient {
  query(text: string | { text: string; values: unknown[] }, values?: unknown[]): Promise<{ rowCount: number | null; rows: unknown[] }>;
}

interface PgPoolLike {
  totalCount: number;
  connect(): Promise<PgTransactionClient & { release(error?: Error | boolean): void }>;
}

interface PostgresJsBegin {
  begin<R>(fn: (tx: { unsafe(text: string, values?: unknown[]): PromiseLike<unknown[]> }) => Promise<R>): PromiseLike<R>;
}

/** A pg Pool or Client, or a postgres.js `sql`. */
export type FencedClientLike = object;

/**
 * Runs `work(tx)` in a transaction that first records `token` for `resource`, refusing it when the
 * resource has already seen a larger token: a stale holder gets FencingTokenRejectedError (code
 * FENCING_TOKEN_REJECTED) and none of its writes commit. `tx` is the transaction's connection: a
 * pg PoolClient/Client, or postgres.js's transaction `sql`. Concurrent holders serialize on the
 * resource's fence row until commit.
 *
 * @example await runExclusive('invoices', 30_000, (signal, { fencingToken }) =>
 *   withFence(pool, { resource: 'invoices', token: fencingToken }, (tx) => tx.query('UPDATE …')));
 */
export async function withFence<R, Tx = never>(db: FencedClientLike, options: FenceOptions, work: (tx: Tx) => Promise<R> | R): Promise<R> {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`withFence: options must be an object, got ${show(options)}`);
  assertKey('withFence', 'options.resource', options.resource);
  const { token } = options;
  if (typeof token !== 'number' || !Number.isSafeInteger(token) || token <= 0) {
    throw new InvalidArgumentError(`withFence: options.token must be the positive integer fencing token passed to fn, got ${show(token)}`);
  }
  if (typeof work !== 'function') throw new InvalidArgumentError(`withFence: work must be a function, got ${show(work)}`);
  const table = fenceTable(options.tableName ?? DEFAULT_FENCE_TABLE);
  const check =
    `INSERT INTO ${table} AS fence (resource, token) VALUES ($1::text, $2::bigint) ` +
    'ON CONFLICT (resource) DO UPDATE SET token = EXCLUDED.token WHERE fence.token <= EXCLUDED.token RETURNING token';
  const values = [options.resource, String(token)];
  const rejected = () =>
    new FencingTokenRejectedError(
      `fencing token ${token} for "${options.resource}" was refused: a newer holder already wrote with a larger token (this holder lost its lease)`,
    );

  if (isPostgresJsLike(db)) {
    return (db as unknown as PostgresJsBegin).begin(async (tx) => {
      const rows = await tx.unsafe(check, values);
      if (rows.length === 0) throw rejected();
      return work(tx as Tx);
    });
  }
  if (!isPgLike(db)) {
    throw new UnknownClientError('withFence needs a pg Pool/Client or a postgres.js sql instance');
  }
  const pool = db as unknown as Partial<PgPoolLike>;
  const isPool = typeof pool.totalCount === 'number';
  const client = isPool ? await (pool as PgPoolLike).connect() : (db as unknown as PgTransactionClient);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const result = await client.query(check, values);
      if ((result.rowCount ?? result.rows.length) === 0) throw rejected();
      const value = await work(client as Tx);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    }
  } finally {
    if (isPool) (client as PgTransactionClient & { release(error?: Error | boolean): void }).release(broken);
  }
}
