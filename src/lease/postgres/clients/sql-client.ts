/**
 * The one thing the PostgreSQL lease store needs from a client, whatever its library: run one
 * parameterised statement in autocommit, as an unnamed statement (never a named prepared
 * statement: those live on one server connection and break through PgBouncer in transaction
 * pooling). Each library (`pg`, postgres.js) gets one small adapter to this shape.
 */
export interface SqlClient {
  /** `'pg'` or `'postgres.js'`, for logs. */
  readonly family: string;
  /**
   * Runs `text` with `values`. If `signal` aborts before the statement is handed to a
   * connection, it is never sent and the promise rejects with `signal.reason`.
   */
  run(text: string, values: readonly unknown[], signal?: AbortSignal): Promise<SqlResult>;
}

export interface SqlResult {
  /** Rows the top-level statement affected (INSERT/UPDATE/DELETE) or returned (SELECT). */
  readonly rowCount: number;
  readonly rows: readonly Record<string, unknown>[];
}

/** Rejects now if `signal` has already aborted: the statement must not be sent. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
