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

/**
 * Verbs that, followed by one of `LOCKED_ADJECTIVES`, name a wrapper running what it is handed under a
 * lock (`runLocked(task)`, `executeLocked(key, fn)`); `isLocked` asks a question and takes nothing.
 */
export const LOCKED_RUN_VERBS: readonly string[] = ['run', 'execute', 'exec', 'do', 'perform', 'call', 'with'];

/** Methods of a promise: a lock kept as a promise chain (`tail = tail.then(task)`) stays in the process. */
export const PROMISE_CHAIN_METHODS: readonly string[] = ['then', 'catch', 'finally'];
