// Rows waiting for a job to act on them, told by the name of the method that loads them: a loader verb
// (orm-reads-writes.ts) and a word for rows that are due (`findOverdue`, `listOverdueNotices`,
// `loadOverdueTasks`), called on the project's data-access object (`this.leaseRepository`,
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

/**
 * Verbs of a function of another module, called alone from a timer's arrow, that say it works through
 * shared items when its body is out of reach (`pollMailbox`, `consumeQueuedJobs`, `closeIdleRooms`): a job's
 * verbs. Beside these, a word of DUE_ROW_WORDS or an age (`handleStaleOrders`) says so too. A name with
 * none (`tallyStandings`, `runReport`, `probeDependencies`) may as well be this process's own upkeep.
 */
export const JOB_VERBS: readonly string[] = [
  'poll',
  'process',
  'consume',
  'handle',
  'close',
  'end',
  'deliver',
  'settle',
  'drain',
  'reconcile',
  'ingest',
];

/** Words beside DUE_ROW_WORDS that say the items a job acts on have waited too long (`closeIdleRooms`). */
export const WAITED_WORDS: readonly string[] = ['idle', 'inactive', 'abandoned', 'stalled'];

/** Last words of an object's name for a bag of helpers rather than a service or data access (`app.helpers`, `utils`). */
export const HELPER_OBJECT_WORDS: readonly string[] = ['helpers', 'helper', 'utils', 'util', 'utilities', 'tools'];
