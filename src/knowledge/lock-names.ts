// Lock words beyond the verbs and nouns of per-replica.ts: an adjective that says a function
// runs what it is handed under a lock (`lockedTick(name, lockId, fn)`, `leasedRun(job)`).

/** First words of a wrapper's name that say the work it runs is locked or leased first. */
export const LOCKED_ADJECTIVES: readonly string[] = ['locked', 'leased'];

/**
 * A wrapper named for running what it is handed once only across the deployment (`runOnlyOnce(fn, name,
 * timeout)`, `runOnlyOnce(job)`): both words in its name. `once` alone (lodash's `once(fn)`) runs a
 * function once per process and guards nothing.
 */
export const ONCE_WORD = 'once';
export const ONCE_ONLY_WORDS: readonly string[] = ['only'];
