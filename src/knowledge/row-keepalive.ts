// The columns a worker touches to keep its hold on one row: a job it runs, a lease it took
// (`UPDATE jobs SET locked_at = $1 WHERE id = $2`). Plain data read by no-unguarded-schedule's
// row keep-alive (rules/no-unguarded-schedule/row-keepalive.ts).

/** Words of a column that only says the row is still held (`locked_at`, `lease_expires_at`, `heartbeat_at`). */
export const HOLD_COLUMN_WORDS: readonly string[] = ['lock', 'locked', 'lease', 'leased', 'heartbeat', 'expires', 'expiry', 'alive'];

/** Words of a column naming the row itself (`id`, `job_id`): the one row the holder keeps. */
export const ROW_KEY_WORDS: readonly string[] = ['id', 'uuid', 'key'];
