// Rows and counters that stay correct with many workers: claim rows in one statement
// (`UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING …`) and bound counters in
// SQL (`SET c = c + $by WHERE … AND c + $by <= $limit`). Identifiers are validated and quoted;
// values are always parameters, never spliced into the text.
import { InvalidArgumentError } from './errors.js';

/** What the helpers need from a client: `pg`'s Pool, Client and PoolClient fit as they are. */
export interface SqlClient {
  // `any` rows: a `pg` Pool, Client and PoolClient (whose rows are `any`) must fit as they are.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
}

interface PostgresJsLike {
  unsafe(text: string, values?: unknown[]): PromiseLike<ArrayLike<unknown> & { count?: number | null }>;
}

/** Adapts a postgres.js `sql` instance (or a `sql.begin` transaction) to `SqlClient`. */
export function fromPostgresJs(sql: unknown): SqlClient {
  if ((typeof sql !== 'function' && typeof sql !== 'object') || sql === null || typeof (sql as PostgresJsLike).unsafe !== 'function') {
    throw new InvalidArgumentError('fromPostgresJs: expected a postgres.js sql instance (with sql.unsafe)');
  }
  const client = sql as PostgresJsLike;
  return {
    async query(text, values) {
      const result = await client.unsafe(text, values ?? []);
      const rows = Array.from(result);
      return { rows, rowCount: typeof result.count === 'number' ? result.count : rows.length };
    },
  };
}

export interface ClaimRowsOptions {
  /** The table; may be schema-qualified (`app.outbox`). Each part is validated and quoted. */
  table: string;
  /** How many rows at most; a positive integer. */
  limit: number;
  /** Primary key column; default `id`. */
  idColumn?: string;
  /** Equality filters for the claimable state (`{ status: 'pending' }`); `null` means IS NULL. */
  where?: Record<string, unknown>;
  /** The transition the claim makes (`{ status: 'processing' }`). */
  set?: Record<string, unknown>;
  /** A lease column: claimable when it IS NULL or in the past; the claim sets it to now() + ms. */
  lease?: { column: string; ms: number };
  /** Column to claim in order of, optionally with ` asc` / ` desc`; default the id column, ascending. */
  orderBy?: string;
  /** Columns to return; default `*`. */
  returning?: readonly string[] | '*';
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** `"name"`, after checking `name` is a plain identifier (so quoting can never be escaped). */
function quoteIdentifier(name: unknown, what: string): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    throw new InvalidArgumentError(
      `${what} must be a plain SQL identifier (letters, digits, _ and $, starting with a letter or _; at most 63 characters), got ${JSON.stringify(name)}`,
    );
  }
  return `"${name}"`;
}

/** `"schema"."table"` from `schema.table` or `table`. */
function quoteTable(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0)
    throw new InvalidArgumentError(`table must be a non-empty string, got ${JSON.stringify(name)}`);
  const parts = name.split('.');
  if (parts.length > 2) throw new InvalidArgumentError(`table must be "table" or "schema.table", got ${JSON.stringify(name)}`);
  return parts.map((part) => quoteIdentifier(part, `table ${JSON.stringify(name)}`)).join('.');
}

function positiveInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(`${what} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function entries(record: Record<string, unknown> | undefined, what: string): Array<[string, unknown]> {
  if (record === undefined) return [];
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new InvalidArgumentError(`${what} must be an object of column: value`);
  return Object.entries(record).filter(([, value]) => value !== undefined);
}

/** Collects values and hands out `$n` placeholders for them. */
class Parameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The claim statement and its values (exported for tests and for logging). */
export function claimRowsStatement(options: ClaimRowsOptions): { text: string; values: unknown[] } {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('claimRows: options must be an object');
  const table = quoteTable(options.table);
  const limit = positiveInteger(options.limit, 'claimRows: limit');
  const id = quoteIdentifier(options.idColumn ?? 'id', 'claimRows: idColumn');
  const params = new Parameters();

  const assignments = entries(options.set, 'claimRows: set').map(
    ([column, value]) => `${quoteIdentifier(column, 'claimRows: set column')} = ${params.add(value)}`,
  );
  const filters = entries(options.where, 'claimRows: where').map(([column, value]) =>
    value === null
      ? `${quoteIdentifier(column, 'claimRows: where column')} IS NULL`
      : `${quoteIdentifier(column, 'claimRows: where column')} = ${params.add(value)}`,
  );
  if (options.lease !== undefined) {
    const column = quoteIdentifier(options.lease?.column, 'claimRows: lease.column');
    const ms = positiveInteger(options.lease?.ms, 'claimRows: lease.ms');
    filters.push(`(${column} IS NULL OR ${column} < now())`);
    assignments.push(`${column} = now() + ${params.add(ms)}::double precision * interval '1 millisecond'`);
  }
  // A claim that changes nothing leaves the row claimable by the next worker.
  if (assignments.length === 0)
    throw new InvalidArgumentError('claimRows: give `set` (the state transition) or `lease`, so a claimed row stops being claimable');

  const order = orderByClause(options.orderBy, id);
  const returning = returningClause(options.returning);
  const where = filters.length > 0 ? ` WHERE ${filters.join(' AND ')}` : '';
  const text =
    `UPDATE ${table} SET ${assignments.join(', ')} WHERE ${id} IN (` +
    `SELECT ${id} FROM ${table}${where} ORDER BY ${order} LIMIT ${params.add(limit)} FOR UPDATE SKIP LOCKED` +
    `) RETURNING ${returning}`;
  return { text, values: params.values };
}

function orderByClause(orderBy: unknown, id: string): string {
  if (orderBy === undefined) return `${id} ASC`;
  const match = typeof orderBy === 'string' ? /^\s*(\S+)(?:\s+(asc|desc))?\s*$/i.exec(orderBy) : null;
  if (!match)
    throw new InvalidArgumentError(`claimRows: orderBy must be "column", "column asc" or "column desc", got ${JSON.stringify(orderBy)}`);
  return `${quoteIdentifier(match[1], 'claimRows: orderBy column')} ${(match[2] ?? 'asc').toUpperCase()}`;
}

function returningClause(returning: unknown): string {
  if (returning === undefined || returning === '*') return '*';
  if (!Array.isArray(returning) || returning.length === 0)
    throw new InvalidArgumentError(`claimRows: returning must be '*' or a non-empty list of columns`);
  return returning.map((column) => quoteIdentifier(column, 'claimRows: returning column')).join(', ');
}

/**
 * Claims up to `limit` rows for this worker in one statement and returns them. Rows another
 * worker holds are skipped, not waited for; a row is claimed by exactly one caller. Act only on
 * the rows returned.
 */
export async function claimRows<Row = Record<string, unknown>>(db: SqlClient, options: ClaimRowsOptions): Promise<Row[]> {
  assertClient(db, 'claimRows');
  const { text, values } = claimRowsStatement(options);
  const result = await db.query(text, values);
  return result.rows as Row[];
}

export interface BoundedIncrementOptions {
  table: string;
  /** Primary key column; default `id`. */
  idColumn?: string;
  /** The row's id (a parameter). */
  id: unknown;
  /** The counter column. */
  column: string;
  /** Amount to add; a positive finite number, default 1. */
  by?: number;
  /** The counter never goes above this; a positive number. */
  limit: number;
}

export interface BoundedDecrementOptions extends Omit<BoundedIncrementOptions, 'limit'> {
  /** The counter never goes below this; default 0. */
  floor?: number;
}

function positiveAmount(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError(`${what} must be a positive finite number, got ${String(value)}`);
  return value;
}

function finiteNumber(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new InvalidArgumentError(`${what} must be a finite number, got ${String(value)}`);
  return value;
}

function assertClient(db: unknown, what: string): asserts db is SqlClient {
  if (typeof db !== 'object' || db === null || typeof (db as SqlClient).query !== 'function') {
    throw new InvalidArgumentError(`${what}: db must have query(text, values) (a pg Pool/Client, or fromPostgresJs(sql))`);
  }
}

/**
 * Adds `by` to a counter only while the result stays at or below `limit`, in one statement.
 * Returns whether the row changed (false: the limit would be passed, or no such row).
 */
export async function boundedIncrement(db: SqlClient, options: BoundedIncrementOptions): Promise<boolean> {
  assertClient(db, 'boundedIncrement');
  const table = quoteTable(options?.table);
  const id = quoteIdentifier(options.idColumn ?? 'id', 'boundedIncrement: idColumn');
  const column = quoteIdentifier(options.column, 'boundedIncrement: column');
  const by = positiveAmount(options.by ?? 1, 'boundedIncrement: by');
  const limit = positiveAmount(options.limit, 'boundedIncrement: limit');
  const result = await db.query(`UPDATE ${table} SET ${column} = ${column} + $1 WHERE ${id} = $2 AND ${column} + $1 <= $3`, [
    by,
    options.id,
    limit,
  ]);
  return (result.rowCount ?? 0) > 0;
}

/** Subtracts `by` only while the result stays at or above `floor` (default 0); whether the row changed. */
export async function boundedDecrement(db: SqlClient, options: BoundedDecrementOptions): Promise<boolean> {
  assertClient(db, 'boundedDecrement');
  const table = quoteTable(options?.table);
  const id = quoteIdentifier(options.idColumn ?? 'id', 'boundedDecrement: idColumn');
  const column = quoteIdentifier(options.column, 'boundedDecrement: column');
  const by = positiveAmount(options.by ?? 1, 'boundedDecrement: by');
  const floor = finiteNumber(options.floor ?? 0, 'boundedDecrement: floor');
  const result = await db.query(`UPDATE ${table} SET ${column} = ${column} - $1 WHERE ${id} = $2 AND ${column} - $1 >= $3`, [
    by,
    options.id,
    floor,
  ]);
  return (result.rowCount ?? 0) > 0;
}
