// Rows waiting for a job to act on them, told by the name of the method that loads them: a loader verb
// (orm-reads-writes.ts) and a word for rows that are due (`findExpired`, `getPendingInvoices`,
// `loadOverdueTasks`), called on the project's data-access object (`this.reservationRepository`,
// `invoiceService`). Read by analysis/scheduled-work/due-rows-read.ts. Plain data.

/** Words of a loader's name that say the rows it returns are due for work. */
export const DUE_ROW_WORDS: readonly string[] = [
  'pending',
  'due',
  'overdue',
  'expired',
  'expiring',
  'unpaid',
  'unprocessed',
  'unsent',
  'queued',
];
