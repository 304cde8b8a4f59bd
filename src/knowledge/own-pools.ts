// What this process keeps for itself under a pool's or a cache's name: a pool of its browsers, its
// workers or its connected users, a cache of what it loaded. Plain data read by `no-unguarded-schedule`
// (analysis/scheduled-work/own-pool.ts).

/**
 * Last words of a getter's name that hand out what this process holds (`getSessionPool()`,
 * `getClientPool()`, `getCache()`): called without arguments and not awaited, it returns a structure
 * in memory, and a walk over it is this process's own.
 */
export const OWN_POOL_GETTER_NOUNS: readonly string[] = ['pool', 'cache'];

/** The first word of such a getter. */
export const OWN_POOL_GETTER_VERB = 'get';

/**
 * The last word of a project class whose instance this module builds to hold resources of this
 * process (`new RenderPool()`, `new WorkerPool(4)`); a package's pool (`new Pool()` of `pg`) is a
 * database client and does not count.
 */
export const OWN_POOL_CLASS_NOUN = 'pool';

/** Last words of a collection that a client library keeps in memory (`client.guilds.cache`): its entries are this process's copies. */
export const CACHED_COLLECTION_NOUNS: readonly string[] = ['cache'];

/** Words of a scheduled work's own name that say it probes this process's health (`storageProbesTick`): it measures and changes nothing. */
export const HEALTH_PROBE_WORDS: readonly string[] = ['probe', 'probes'];
