// Lock words beyond the verbs and nouns of per-replica.ts: an adjective that says a function
// runs what it is handed under a lock (`lockedTick(name, lockId, fn)`, `leasedRun(job)`).

/** First words of a wrapper's name that say the work it runs is locked or leased first. */
export const LOCKED_ADJECTIVES: readonly string[] = ['locked', 'leased'];
