// Names of a data module's helpers that hand out the rows still waiting for work (`findUnsent`,
// `listDevicesPendingSync`, `findOrdersNeedingReview`, `getDueRenewals`) and of those that mark
// one row done (`markReviewDone`, `markSyncCleared`, `updateDispatched`), read from the names alone
// when the helpers' module cannot be read (a file linted alone, a module outside the project).

/** A read helper named for rows still waiting: a read verb, then a word of waiting somewhere in the name (not a count of them). */
export const PENDING_ROWS_HELPER =
  /^(?:find|list|get|fetch|load|select|query)(?:[A-Z]\w*?)?(?:Pending|Due|Unprocessed|NotProcessed|Unsent|NotSent|Queued|Needing|Awaiting|Overdue|Unclaimed|Unhandled|Undelivered)(?:[A-Z]\w*)?$/;
/** …a name that ends in a count or a test is not a read of rows. */
export const COUNTS_ROWS = /(?:Count|Total|Number|Exists|Amount)$/;

/** A helper named for marking one row done: `mark…`, or `update` / `set` with the state it sets. */
export const MARK_ROW_HELPER =
  /^(?:mark[A-Z]\w*|(?:update|set)[A-Z]?\w*?(?:Sent|Processed|Done|Cleared|Completed|Handled|Delivered|Published|Notified|Claimed|Dispatched))$/;
