// The lease operations, each ONE SQL statement run in autocommit: no session state, no named
// prepared statement, no explicit transaction, so each is safe through PgBouncer in transaction
// pooling (every statement may land on a different server connection).
//
// Time is the database's: `statement_timestamp()` — the start of the current statement, stable
// within it (every comparison in one statement agrees) and, unlike `now()`, not frozen at the
// start of an enclosing transaction if a caller hands us a client inside one. The pods' clocks
// never enter: ttls travel as milliseconds and are added on the server.
import type { LeaseTableName } from './lease-table-name.js';

/** The statements for one table; `$1` key, `$2` owner, `$3` ttl in milliseconds. */
export interface LeaseStatements {
  /** Returns one row (`owner`) when this call took the key. */
  readonly acquire: string;
  /** The same claim, also deleting up to `sweepLimit` expired rows of other keys. */
  readonly acquireAndSweep: string;
  /** The claim with a fencing token: returns one row (`owner`, `fence`) when this call took the key. */
  readonly acquireFenced: string;
  /** `acquireFenced`, also sweeping. */
  readonly acquireFencedAndSweep: string;
  /** Affects one row when `owner` still held a live lease. */
  readonly extend: string;
  /**
   * Keeps a finished job's key for `$3` ms: one row whose `held` is true when `owner` still held
   * a live lease, false when it had expired (or was swept) and nobody took it; no row when another
   * owner holds a live lease.
   */
  readonly keep: string;
  /** Returns one row whose `live` is true when `owner` still held a live lease. */
  readonly release: string;
}

const EXPIRES_IN = `statement_timestamp() + $3::float8 * interval '1 millisecond'`;
/** The database clock in microseconds since the epoch: the floor of every fencing token. */
const CLOCK_MICROS = `(extract(epoch FROM statement_timestamp()) * 1000000)::bigint`;

/**
 * `acquireAndSweep` deletes up to `sweepLimit` expired rows (other keys) in the claim's own
 * statement, so the table stays small without a sweeper job (which would itself need a guard).
 *
 * A fencing token is `max(the row's previous token + 1, the database clock in µs)`: it grows per
 * key across holders, and keeps growing after the row was released or swept (the clock has moved
 * on), as long as the database clock does not step back.
 */
export function leaseStatements(table: LeaseTableName, sweepLimit: number): LeaseStatements {
  const t = table.qualified;
  const claim = [
    `INSERT INTO ${t} AS lease (key, owner, expires_at)`,
    `VALUES ($1::text, $2::text, ${EXPIRES_IN})`,
    'ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at',
    'WHERE lease.expires_at <= statement_timestamp()',
    'RETURNING lease.owner',
  ].join('\n');
  const fencedClaim = [
    `INSERT INTO ${t} AS lease (key, owner, expires_at, fence)`,
    `VALUES ($1::text, $2::text, ${EXPIRES_IN}, ${CLOCK_MICROS})`,
    'ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,',
    '  fence = GREATEST(lease.fence + 1, EXCLUDED.fence)',
    'WHERE lease.expires_at <= statement_timestamp()',
    'RETURNING lease.owner, lease.fence',
  ].join('\n');
  const withSweep = (statement: string, columns: string) =>
    sweepLimit === 0
      ? statement
      : [
          `WITH claimed AS (\n${statement}\n), swept AS (`,
          // `= ANY (ARRAY(...))`: the few keys are collected first, then deleted through the
          // primary key, whatever the planner's statistics say (no scan of live rows).
          `  DELETE FROM ${t} AS stale WHERE stale.key = ANY (ARRAY(`,
          `    SELECT expired.key FROM ${t} AS expired`,
          '    WHERE expired.expires_at <= statement_timestamp() AND expired.key <> $1::text',
          // Reading `claimed` here makes the claim finish before the sweep locks any row. Without
          // that order two acquires could deadlock: each sweeping (locking) the expired key the
          // other is claiming, each claim waiting on the other's sweep. With it, a statement
          // that waits (in its claim) holds no sweep locks, and a sweep never waits (SKIP LOCKED).
          '      AND (SELECT count(*) FROM claimed) >= 0',
          `    ORDER BY expired.expires_at LIMIT ${sweepLimit}`,
          '    FOR UPDATE SKIP LOCKED',
          '  ))',
          ')',
          `SELECT ${columns} FROM claimed`,
        ].join('\n');
  return {
    acquire: claim,
    acquireAndSweep: withSweep(claim, 'owner'),
    acquireFenced: fencedClaim,
    acquireFencedAndSweep: withSweep(fencedClaim, 'owner, fence'),
    extend: `UPDATE ${t} SET expires_at = ${EXPIRES_IN} WHERE key = $1::text AND owner = $2::text AND expires_at > statement_timestamp()`,
    keep: [
      `WITH prior AS (SELECT owner = $2::text AND expires_at > statement_timestamp() AS held FROM ${t} WHERE key = $1::text)`,
      `INSERT INTO ${t} AS lease (key, owner, expires_at)`,
      `VALUES ($1::text, $2::text, ${EXPIRES_IN})`,
      'ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at',
      'WHERE lease.owner = EXCLUDED.owner OR lease.expires_at <= statement_timestamp()',
      'RETURNING coalesce((SELECT held FROM prior), false) AS held',
    ].join('\n'),
    release: `DELETE FROM ${t} WHERE key = $1::text AND owner = $2::text RETURNING expires_at > statement_timestamp() AS live`,
  };
}
