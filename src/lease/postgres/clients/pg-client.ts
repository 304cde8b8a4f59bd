// node-postgres (`pg`): a `Pool`, a `Client`, or a client checked out of a pool.
import { throwIfAborted, type SqlClient, type SqlResult } from './sql-client.js';

interface PgQueryResult {
  rowCount: number | null;
  rows: Record<string, unknown>[];
}

export interface PgQueryable {
  query(config: { text: string; values: unknown[] }): Promise<PgQueryResult>;
}

interface PgPoolClientLike extends PgQueryable {
  release(error?: Error | boolean): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgPoolLike extends PgQueryable {
  totalCount: number;
  connect(): Promise<PgPoolClientLike>;
}

/** pg's Pool, Client and PoolClient all have `query(config)` and `connect()`; postgres.js is a function instead. */
export function isPgLike(client: unknown): client is PgQueryable {
  const c = client as { query?: unknown; connect?: unknown } | null;
  return typeof c === 'object' && c !== null && typeof c.query === 'function' && typeof c.connect === 'function';
}

/** A pg `Pool` counts its clients (`totalCount`) and hands them out with `connect()`. */
function isPgPool(client: PgQueryable): client is PgPoolLike {
  const pool = client as Partial<PgPoolLike>;
  return typeof pool.totalCount === 'number' && typeof pool.connect === 'function';
}

function hasSqlState(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

export function pgSqlClient(client: PgQueryable): SqlClient {
  const toResult = (result: PgQueryResult): SqlResult => ({ rowCount: result.rowCount ?? result.rows.length, rows: result.rows });
  // A query config without `name` is an unnamed statement: one Parse/Bind/Execute/Sync round trip.
  const send = (on: PgQueryable, text: string, values: readonly unknown[]) => on.query({ text, values: [...values] }).then(toResult);

  if (!isPgPool(client)) {
    return {
      family: 'pg',
      async run(text, values, signal) {
        throwIfAborted(signal);
        return send(client, text, values);
      },
    };
  }
  return {
    family: 'pg',
    // `pool.query` would queue the statement until a connection frees up and send it however
    // late; checking out first lets a timed-out claim give its connection back unsent.
    async run(text, values, signal) {
      throwIfAborted(signal);
      const connection = await client.connect();
      try {
        throwIfAborted(signal);
      } catch (error) {
        connection.release();
        throw error;
      }
      // pg-pool drops its own 'error' listener while a client is checked out; a connection lost
      // mid-statement would then crash the process with an unhandled 'error' event. The
      // statement's promise rejects with the same error, which is what we report.
      const onError = () => undefined;
      connection.on?.('error', onError);
      try {
        const result = await send(connection, text, values);
        connection.off?.('error', onError);
        connection.release();
        return result;
      } catch (error) {
        connection.off?.('error', onError);
        // A server-side error (an SQLSTATE) leaves the connection usable; anything else (reset,
        // timeout) may not, so the pool discards it instead of handing it to the next caller.
        connection.release(!hasSqlState(error));
        throw error;
      }
    },
  };
}
