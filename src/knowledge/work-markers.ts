// Tables whose rows mark that a piece of work ran or is held: the find-then-create claim's tables.
/**
 * Words of a table or model name that say its rows record that work ran, or hold it (`job_runs`,
 * `ScheduledJobRun`, `idempotency_keys`, `processed_events`): a row looked up and created when absent
 * there is a find-then-create claim. Not `claim` or `lease`: an insurance claim or a tenant's lease is
 * a business record, not a work marker.
 */
export const WORK_MARKER_TABLE_WORDS: readonly string[] = [
  'run',
  'runs',
  'execution',
  'executions',
  'lock',
  'locks',
  'idempotency',
  'idempotent',
  'dedup',
  'dedupe',
  'deduplication',
  'processed',
];
