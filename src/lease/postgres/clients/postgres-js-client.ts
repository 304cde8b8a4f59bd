// postgres.js (`postgres()` returns the `sql` tag function; `sql.unsafe` runs text + values).
import { type SqlClient } from './sql-client.js';

interface PostgresJsQuery extends PromiseLike<PostgresJsRows> {
  execute(): PostgresJsQuery;
  cancel(): unknown;
  /** Set once the query is written to a connection (postgres.js internals, read only). */
  readonly state?: unknown;
}

type PostgresJsRows = Record<string, unknown>[] & { count: number | null };

/** The part of postgres.js's `Sql` the store uses (method syntax, so `Sql` itself is assignable). */
export interface PostgresJsLike {
  (...args: never[]): unknown;
  unsafe(text: string, values?: never[], options?: { prepare?: boolean }): PromiseLike<unknown>;
  begin: unknown;
}

/** postgres.js's `sql` is a function carrying `unsafe` and `begin`. */
export function isPostgresJsLike(client: unknown): client is PostgresJsLike {
  if (typeof client !== 'function') return false;
  const sql = client as { unsafe?: unknown; begin?: unknown };
  return typeof sql.unsafe === 'function' && typeof sql.begin === 'function';
}

export function postgresJsSqlClient(sql: PostgresJsLike): SqlClient {
  return {
    family: 'postgres.js',
    run(text, values, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
      // `prepare: false`: an unnamed statement (postgres.js would otherwise name and cache it).
      const query = sql.unsafe(text, [...values] as never[], { prepare: false }) as PostgresJsQuery;
      // A query still queued for a connection (postgres.js leaves `state` null until it writes
      // it to one) is removed from the queue and never sent. One already sent is left to finish
      // (the guard gives a late claim back): cancelling it would open a cancel connection whose
      // failure postgres.js reports as an unhandled rejection. The check waits a macrotask:
      // postgres.js hands a query to its pool one microtask after execute(), and a query
      // cancelled before that still reaches a connection and wedges it.
      const cancel = () => {
        setImmediate(() => {
          if (query.state) return;
          Promise.resolve()
            .then(() => query.cancel())
            .catch(() => undefined);
        });
      };
      signal?.addEventListener('abort', cancel, { once: true });
      return Promise.resolve(query.execute()).then(
        (rows) => {
          signal?.removeEventListener('abort', cancel);
          return { rowCount: rows.count ?? rows.length, rows };
        },
        (error: unknown) => {
          signal?.removeEventListener('abort', cancel);
          // Our own cancel (57014) after an abort: report the abort, as the pg adapter does.
          throw signal?.aborted ? (signal.reason ?? error) : error;
        },
      );
    },
  };
}
