// How a worker leases rows: it reads them skipping the rows another transaction locked (SQL `FOR
// UPDATE SKIP LOCKED`, TypeORM `setOnLocked('skip_locked')`, Knex/Kysely `.skipLocked()`, `{
// skipLocked: true }`) and, in the same function, updates them (a lease time pushed ahead, a status
// or an owner set), so another worker's claim passes them over until the lease ends. Read by
// no-read-then-write's leased rows.

/** Text of a read that skips locked rows, in SQL or in a builder's spelling. */
export const SKIP_LOCKED_TEXT = /\bskip[\s_]+locked\b|\bskipLocked\b/i;

/** Text of an update of rows: a builder's or a repository's `update(…)` / `updateMany(…)`, or SQL `UPDATE table`. */
export const ROW_UPDATE_TEXT = /\.update(?:Many)?\s*\(|\bupdate\s+["'`\w.]+\s+set\b/i;
