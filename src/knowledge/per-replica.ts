// How scheduled work shows its intent without types: by the modules it calls and the words its
// functions are named with. Plain data read by `no-unguarded-schedule`:
// - per-replica intent: metrics and telemetry of this instance, keep-alives and heartbeats on its
//   own connections, flushing its own buffer, reloading its own cache, renewing its own lock;
// - coordination: in-house lock / lease / leader names, deduplicating enqueue options;
// - shared effects: the verbs that write a database, send a message or publish to a queue;
// - deployment-flag gates: one pod configured differently from the others.
import { OWN_CONNECTION_DROP_PAIR } from './work-effects.js';

/** Modules whose calls are this instance's metrics or telemetry (a module whose name holds one of `TELEMETRY_MODULE_WORDS` counts too). */
export const TELEMETRY_MODULES: readonly string[] = [
  'prom-client',
  'hot-shots',
  'node-statsd',
  'statsd-client',
  'lynx',
  '@opentelemetry/api',
  'dd-trace',
  'datadog-metrics',
  '@datadog/datadog-api-client',
  'posthog-node',
  'newrelic',
  'elastic-apm-node',
  'applicationinsights',
];

export const TELEMETRY_MODULE_WORDS: readonly string[] = ['telemetry', 'metrics', 'statsd', 'opentelemetry', 'prometheus'];

/** Camel-case words of a function or method name that say "this instance only". */
export const PER_REPLICA_WORDS: readonly string[] = [
  'telemetry',
  'heartbeat',
  'keepalive',
  'ping',
  // this process's own connection: `scheduleQuickReconnects`, `reconnectBroker`
  'reconnect',
  'reconnects',
  'beacon',
  'healthcheck',
  'gauge',
  'gauges',
  'flush',
  'machine',
];

/** Verbs that keep a lock or lease this process already holds (`lock.extend(ms)`, `lease.renew()`): the guard's own upkeep. */
export const LOCK_RENEW_VERBS: readonly string[] = ['extend', 'renew', 'refresh'];

/** Words that name what lies on this host (`tmp`, `temp`, `local`). */
export const HOST_LOCAL_WORDS: readonly string[] = ['tmp', 'temp', 'local'];

/** Verbs that, beside a host-local word, write or drop something on this host (`cleanupTemp`, `saveLocalCache`). */
export const HOST_LOCAL_WRITE_VERBS: readonly string[] = ['clean', 'cleanup', 'remove', 'delete', 'prune', 'save', 'write'];

/** Word pairs (both in one name) that say "this instance only": `reloadCache`, `renewLock`, `cleanupTemp`. */
export const PER_REPLICA_WORD_PAIRS: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [
    ['reload', 'refresh', 'warm', 'rebuild', 'set', 'clear', 'invalidate'], // `setReferralCache(rows)`, `clearCache('x')`: this process's
    ['cache', 'caches', 'config', 'settings'],
  ],
  [LOCK_RENEW_VERBS, ['lock', 'lease', 'locks', 'leases']],
  // `saveLocalCache`, `writeLocalCopy`: a file on this host
  [HOST_LOCAL_WRITE_VERBS, HOST_LOCAL_WORDS],
  OWN_CONNECTION_DROP_PAIR,
];

/**
 * `closeIdle`, `pruneStale`, `cleanStaleLocks`: dropping what this process holds idle or stale (its
 * connections, its own locks). The adjective counts only when no other noun follows it:
 * `cleanupStaleSessions`, `closeIdleRooms` name shared rows, and their bodies decide.
 */
export const PER_REPLICA_STALE_VERBS: readonly string[] = ['clean', 'cleanup', 'close', 'prune', 'drop', 'evict'];
export const PER_REPLICA_STALE_ADJECTIVES: readonly string[] = ['idle', 'stale'];
/** Nouns after the adjective that keep it this process's own (its connections, its locks and leases). */
export const PER_REPLICA_STALE_NOUNS: readonly string[] = [
  'connections',
  'connection',
  'sockets',
  'socket',
  'clients',
  'locks',
  'lock',
  'leases',
  'lease',
];

/** Identifiers that key data to this machine: `machineId`, `nodeId`, `hostname`. */
export const MACHINE_ID_NAMES: readonly string[] = ['machineId', 'nodeId', 'hostname', 'instanceId', 'hostId'];

/**
 * The record this process registered for itself and keeps on the instance (`this.worker.uuid`,
 * `this.runner.id`): a write keyed by its id is this replica's own row (its heartbeat, its load).
 */
export const OWN_RECORD_HOLDERS: readonly string[] = ['worker', 'runner', 'instance', 'replica', 'agent'];
export const OWN_RECORD_KEYS: readonly string[] = ['id', 'uuid'];

/**
 * Calls that measure this process (`process.cpuUsage()`, `process.memoryUsage()`, `os.loadavg()`,
 * v8's `writeHeapSnapshot()`, `performance.eventLoopUtilization()`): work that samples them reports
 * or stores this process's own profile, per replica by design.
 */
export const PROCESS_MEASUREMENTS: readonly string[] = [
  'cpuUsage',
  'memoryUsage',
  'resourceUsage',
  'loadavg',
  'writeHeapSnapshot',
  'getHeapSnapshot',
  'getHeapStatistics',
  'getHeapSpaceStatistics',
  'eventLoopUtilization',
];

/** The events a process gets once, as it ends (`process.on('SIGTERM', …)`): a signal, or Node's own last events. */
export const PROCESS_END_EVENT = /^(?:SIG[A-Z]+|beforeExit|exit)$/;

/** Objects whose members name this machine (`os.hostname()`, `process.pid`): a member of any other object names that object's host (`url.hostname`). */
export const MACHINE_OBJECTS: readonly string[] = ['os', 'process'];
/** Words that, in a callee name, mean a lock, lease or leader election (`acquireLock`, `tryLock`, `withLock`, `isLeader`). */
export const LOCK_WORDS: readonly string[] = ['lock', 'lease', 'mutex', 'semaphore', 'leader', 'leadership', 'redlock'];
/** Endings a receiver's word may add to a lock word and still name a lock (`locks`, `locker`); not `leaderboard`, `lockdown`. */
export const LOCK_WORD_ENDINGS: readonly string[] = ['', 's', 'es', 'er', 'ers', 'ing'];

/**
 * Packages whose locks hold within one process only (async-mutex's `Mutex`, async-lock's
 * `AsyncLock`, await-lock's `AwaitLock`): `mutex.runExclusive(…)` or `if (mutex.isLocked()) return`
 * stops a tick overlapping the last one in this process, never another replica's.
 */
export const IN_PROCESS_LOCK_MODULES: readonly string[] = [
  'async-mutex',
  'async-lock',
  'await-lock',
  'await-semaphore',
  'semaphore-async-await',
  'async-sema',
  '@esfx/async-mutex',
  'mutexify',
  'mutexify/promise',
];

/**
 * Words of a call that takes a lease before work (`this.elections.getElection(name, ms)`,
 * `leases.take(key)`) when its answer decides whether the work runs (`if (!key) return;`).
 */
export const LEASE_GATE_WORDS: readonly string[] = [...LOCK_WORDS, 'locks', 'leases', 'election', 'elections', 'elector'];

/**
 * Last words of a `create…` method that builds a value or opens a handle of this process, not a record
 * (`createQueryBuilder`, `createCursor`, `createConnection(options)`): a write only when its chain writes.
 */
export const BUILT_IN_PROCESS_NOUNS: readonly string[] = ['builder', 'cursor', 'iterator', 'connection', 'pool', 'socket'];

/**
 * Words that may follow the lock word in a lock-taking name (`acquireLockFor(job)`, `lockAndRun`,
 * `isLeaderNode`); any other word after it makes the lock word describe something else
 * (`getUsersForLockDashboards`, `getLockKey`).
 */
export const LOCK_NAME_TAIL: readonly string[] = [
  'for',
  'on',
  'of',
  'if',
  'or',
  'and',
  'then',
  'node',
  'instance',
  'replica',
  'pod',
  'process',
];

/** Verbs that take a lock: with a `LOCK_WORDS` receiver or name (`locking.acquire`, `mutex.runExclusive`). */
export const LOCK_VERBS: readonly string[] = [
  'acquire',
  'try',
  'with',
  'obtain',
  'take',
  'grab',
  'claim',
  'lock',
  'run',
  'using',
  'get',
  'is',
  'elect',
];

/** `try…` callee names that claim something conditionally (`tryClaimTask`, `trySetCronTime`). */
export const CONDITIONAL_CLAIM_VERBS: readonly string[] = ['claim', 'acquire', 'set', 'take', 'reserve', 'mark', 'lock', 'obtain', 'grab'];

/**
 * Taking the next job from a queue: the queue hands each job to one consumer, so a worker's poll
 * loop runs on every replica by design (`queue.next(name)`, `getNextJobToRun`, `dequeue`,
 * `claimNextTask`). A name with one of `DEQUEUE_WORDS`; `next` (first, or after one of
 * `TAKE_NEXT_VERBS`) with one of `JOB_WORDS` in the name; or `next` alone on a receiver named
 * with one (`jobQueue.next()`, not `job.nextDate()`).
 */
export const DEQUEUE_WORDS: readonly string[] = ['dequeue', 'dequeued'];
/** Verbs before `next` that take it (`getNextJob`, `claimNextTask`), unlike `scheduleNextJob`. */
export const TAKE_NEXT_VERBS: readonly string[] = [
  'get',
  'fetch',
  'take',
  'find',
  'claim',
  'reserve',
  'pull',
  'poll',
  'acquire',
  'grab',
  'lock',
  'pick',
  'receive',
];
export const JOB_WORDS: readonly string[] = ['job', 'jobs', 'task', 'tasks', 'queue', 'queues'];

/** Option keys that deduplicate an enqueue whatever the call looks like (pg-boss, graphile-worker, idempotency, a table-backed queue's dedup key). */
// prettier-ignore
export const DEDUPE_OPTION_KEYS: readonly string[] = ['singletonKey', 'jobKey', 'idempotencyKey', 'deduplicationId', 'dedupKey', 'dedupeKey', 'deduplicationKey', 'deduplication'];

/** First words of a callee name that write shared state or send something out. */
export const SHARED_WRITE_VERBS: readonly string[] = [
  'save',
  'insert',
  'update',
  'upsert',
  'delete',
  'remove',
  'destroy',
  'create',
  'purge',
  'prune',
  'expire',
  'archive',
  'truncate',
  'increment',
  'decrement',
  'send',
  'email',
  'mail',
  'notify',
  'publish',
  'enqueue',
  'schedule',
  'dispatch',
  'charge',
  'bill',
  'invoice',
  'tweet',
  'post',
  'put',
  'patch',
  'sync',
  'cleanup',
  'clean',
  'sweep',
  'rebuild',
  'unban', // a moderation lifted at its expiry (`guild.members.unban(id)`): a change on the chat server
  'unmute',
];

/**
 * `clear` is a shared write only when an age follows it: `clearExpiredPermissions`,
 * `clearOldExpiredMutes` delete rows past their time; `clear()` of a map, `clearTimeout` and
 * `clearCache` stay in the process.
 */
export const CLEAR_BY_AGE_VERB = 'clear';
export const AGE_ADJECTIVES: readonly string[] = ['expired', 'old', 'stale', 'outdated', 'obsolete'];
/** Nouns that keep a clear by age in this process (`clearExpiredCache`, `clearStaleTimers`), beside PER_REPLICA_STALE_NOUNS. */
export const IN_PROCESS_CLEAR_NOUNS: readonly string[] = [
  'cache',
  'caches',
  'memory',
  'timer',
  'timers',
  'timeouts',
  'listeners',
  'handlers',
  ...HOST_LOCAL_WORDS,
];

/** Leading words skipped before the verb: `batchRemove`, `bulkCreate`, `runCleanup`, `performSync`. */
export const VERB_PREFIXES: readonly string[] = ['batch', 'bulk', 'do', 'async', 'soft', 'hard', 'run', 'perform', 'execute'];

/** Single-word methods that write only with an outside client as receiver (`repo.save`, not `map.delete`, not a collection's `sweep`). */
export const RECEIVER_BOUND_VERBS: readonly string[] = [
  'delete',
  'sweep',
  'remove',
  'update',
  'create',
  'send',
  'post',
  'put',
  'patch',
  'sync',
  'schedule',
  'dispatch',
  'add',
  'set',
  // Redis's writing commands as ioredis and node-redis v3 name them (`redis.srem(key, member)`).
  'del',
  'unlink',
  'sadd',
  'srem',
  'hdel',
  'hset',
  'hmset',
  'zadd',
  'zrem',
  'zremrangebyscore',
  'lpush',
  'rpush',
  'lrem',
  'ltrim',
  'xadd',
  'xtrim',
];

/**
 * Of those, the writes a model class makes as its own receiver (Active Record: TypeORM
 * `BaseEntity`, Sequelize and Objection models): `await Session.delete({ expired: true })`.
 */
export const MODEL_CLASS_WRITE_VERBS: readonly string[] = ['delete', 'remove', 'update'];

/**
 * The last segment of a URL path (`/oauth/token`, `/users/@me/tokens`, `/auth/login`) that asks for
 * this process's own credentials: a `POST` there signs this replica in, it changes nothing shared.
 */
export const CREDENTIAL_PATH_SEGMENTS: readonly string[] = [
  'token',
  'tokens',
  'login',
  'signin',
  'sign-in',
  'authenticate',
  'auth',
  'session',
  'sessions',
];

/** HTTP methods that change something on the other side. */
export const WRITE_HTTP_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Words of a condition that mean leader election (coordinated at run time). Not LEASE_GATE_WORDS: those
 * name a call whose answer is tested; in a condition's text `lock`/`lease` is as often a setting (`config.lockTimeoutMs`).
 */
export const LEADER_WORDS: readonly string[] = ['leader', 'leadership', 'elected'];

/**
 * A condition on the process's role in the deployment (every pod of a Deployment has the same
 * environment), matched with underscores removed so `RUN_JOBS` reads as `runJobs`. An environment
 * variable that configures a feature (`STRIPE_SECRET_KEY`, `SMTP_HOST`) is not a role.
 */
const DEPLOYMENT_FLAG_PATTERN =
  /NODEAPPINSTANCE|pmid|isPrimary|isMaster|primary|cronNode|runJobs|jobsEnabled|isWorker|worker|cron|scheduler/i;

/** Whether a condition's text names the process's role in the deployment (see DEPLOYMENT_FLAG_PATTERN). */
export function isDeploymentFlagText(text: string): boolean {
  return DEPLOYMENT_FLAG_PATTERN.test(text.replace(/_/g, ''));
}

/**
 * A replica's ordinal across the deployment (matched with underscores removed): `INSTANCE_INDEX`,
 * `config.instanceIndex`, `REPLICA_ORDINAL`, `POD_INDEX`, Nomad's `NOMAD_ALLOC_INDEX`. Compared with
 * 0, it picks one replica. Not pm2's `NODE_APP_INSTANCE` or `pm_id`, nor a cluster worker's id: those
 * count processes on one host, and every host has a 0.
 */
export const REPLICA_ORDINAL_PATTERN = /(instance|replica|pod|alloc)(index|idx|ordinal|number|num)|ordinal/i;

/**
 * The run environment's name as a condition reads it (`process.env.NODE_ENV`, `config.env`,
 * `APP_ENV`), matched on the last name of the expression with underscores removed.
 */
export const RUN_ENVIRONMENT_NAME_PATTERN = /^(node|app)?env(ironment)?$/i;

/** Values of the run environment that are never a production deployment. */
export const DEVELOPMENT_ENVIRONMENTS: readonly string[] = ['development', 'dev', 'local', 'test'];

/** Flags that say the process runs in development (`isDev`, `config.isDevelopment`, `IS_DEV`); `isProduction` is their opposite. */
export const DEVELOPMENT_FLAG_PATTERN = /^is_?dev(elopment)?$/i;
export const PRODUCTION_FLAG_PATTERN = /^is_?prod(uction)?$/i;

/** A host name that ends in a StatefulSet ordinal (`HOSTNAME.endsWith('-0')`, `os.hostname()`, `POD_NAME`). */
export const ORDINAL_HOST_NAME_PATTERN = /hostname|podname/i;

/** Words of a timer handle's name that say it keeps a held lock alive (`this.heartbeat`, `leaseRenewal`, `keepAliveTimer`). */
export const HEARTBEAT_HANDLE_WORDS: readonly string[] = ['heartbeat', 'keepalive', 'renew', 'renewal', 'lease', 'lock'];

/** Words in a heartbeat's work that name the lock row it renews (`UPDATE locks SET expires_at`, `heartbeat_at`). */
export const LOCK_ROW_WORDS: readonly string[] = ['lock', 'locks', 'lease', 'leases', 'heartbeat', 'expires', 'expiry'];

/** Verbs of a call that takes a lock before its heartbeat starts (`tryAcquireLockAndMigrate`, `obtainLease`). */
export const LOCK_ACQUIRE_VERBS: readonly string[] = ['acquire', 'obtain', 'take', 'grab'];

/** Words in a class, function or file name that make a bare timer a job runner (a declared job). */
export const JOB_RUNNER_WORDS: readonly string[] = ['cron', 'crons', 'scheduler', 'schedulers', 'jobs'];
