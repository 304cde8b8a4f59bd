// Names that say a call refreshes or resets what this process holds (its cache, its tracker of
// downloads, its copy of the configuration): every replica keeps its own copy, so every replica
// refreshing it repeats nothing shared. Plain data read by `no-unguarded-schedule`
// (analysis/scheduled-work/process-state-refresh.ts).

/** First words (after a prefix such as `run`) of a method that refreshes or resets state it holds. */
export const STATE_REFRESH_VERBS: readonly string[] = [
  'refresh',
  'reload',
  'reset',
  'update',
  'warm',
  'rebuild',
  'invalidate',
  'recompute',
];

/** Nouns of the method's own name that name state this process holds (`resetDownloadTracker`, `reloadConfig`). */
export const PROCESS_STATE_NOUNS: readonly string[] = ['cache', 'caches', 'tracker', 'trackers', 'config', 'configs', 'configuration'];

/**
 * Nouns of the receiver that make it an in-memory holder, whatever the method goes on to name
 * (`downloadTracker.updateDownloads()`, `this.priceCache.refresh()`); not a config service, whose
 * `update` may well write a shared settings row.
 */
export const PROCESS_STATE_HOLDERS: readonly string[] = ['cache', 'tracker'];

/** Verbs that fill such a holder from what the process reads (`pageCache.loadAll()`, `rateCache.populate()`): asked of a holder only. */
export const HOLDER_FILL_VERBS: readonly string[] = ['load', 'fill', 'populate', 'prime'];

/**
 * A holder's own pending changes written out (`memberCache.savePendingUpdates()`): what this process
 * gathered, flushed by the process that gathered it. A verb of these with `pending` in the method's name.
 */
export const PENDING_FLUSH_VERBS: readonly string[] = ['save', 'persist', 'write', 'commit', 'flush'];
export const PENDING_WORD = 'pending';

/**
 * Word pairs (both in a scheduled work's own name) that say "this instance only", beside PER_REPLICA_WORD_PAIRS: a
 * liveness post (`beAlive`, `stillAlive`; `keepAlive` of a lock stays judged by its body), the
 * chat client's own presence (`rotateStatus`, `cycleActivities`, `updatePresence`), this process's
 * metrics sent out (`reportMetrics`, `pushMetrics`; not `computeDailyMetrics`).
 */
export const OWN_PROCESS_WORD_PAIRS: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [['be', 'stay', 'still'], ['alive']],
  [['rotate', 'cycle', 'update', 'refresh'], ['presence']],
  [
    ['rotate', 'cycle'],
    ['activity', 'activities'],
  ],
  [
    ['rotate', 'cycle'],
    ['status', 'statuses'],
  ],
  [['report', 'push', 'send', 'collect', 'emit', 'export', 'record', 'publish'], ['metrics']],
];

/**
 * A call that ends this process, by its name: a verb of `PROCESS_END_VERBS` first and a noun of
 * `PROCESS_END_NOUNS` after it (`killProcess()`, `restartServer()`, `exitProcess(1)`) — a watchdog's last act.
 */
export const PROCESS_END_VERBS: readonly string[] = ['kill', 'exit', 'restart', 'reboot', 'terminate', 'shutdown'];
export const PROCESS_END_NOUNS: readonly string[] = ['process', 'server', 'self', 'app', 'instance'];

/**
 * Last words of a key written out that name a liveness beacon (`'@acme/server/ping'`, `'svc:heartbeat'`,
 * `'worker:alive'`): every replica writes the same key with the time it last saw itself alive.
 */
export const BEACON_KEY_WORDS: readonly string[] = ['ping', 'heartbeat', 'alive', 'liveness', 'keepalive'];

/** Words of a call's name that say it writes a key (`set`, `kvSet`, `hset`, `setex`, `put`). */
export const KEY_WRITE_WORDS: readonly string[] = ['set', 'setex', 'psetex', 'hset', 'put', 'write', 'upsert', 'save'];

/**
 * Words of a check for a newer release of this program (`checkForNewRelease`, `checkLatestVersion`):
 * a name made of `check` and only these asks the project's release feed and tells this process's operator.
 */
export const RELEASE_CHECK_WORDS: readonly string[] = [
  'for',
  'new',
  'newer',
  'latest',
  'update',
  'updates',
  'version',
  'release',
  'releases',
];
