// What keeps scheduled work on this host, by name, for code read without types: reads (an HTTP
// GET, a database find, a Redis read command), file-system calls (the host's own disk: reads and
// writes), pure utility packages, and project functions named for a computation. Plain data read by the host-local walk of
// `no-unguarded-schedule` (analysis/scheduled-work/host-local-work.ts).

/** First words of a method name that read and change nothing (`getQueue`, `findMany`, `countBy`). */
export const READ_VERBS: readonly string[] = [
  'get',
  'head',
  'fetch',
  'find',
  'count',
  'list',
  'read',
  'load',
  'search',
  'lookup',
  'exists',
  // Redis read commands, one word each (`redis.smembers(key)`, `this.redis.hget(key, field)`).
  'hget',
  'hgetall',
  'hmget',
  'hkeys',
  'hvals',
  'hlen',
  'hexists',
  'mget',
  'smembers',
  'sismember',
  'scard',
  'zrange',
  'zrangebyscore',
  'zrevrange',
  'zscore',
  'zcard',
  'lrange',
  'llen',
  'ttl',
  'pttl',
  'keys',
  'scan',
];

/**
 * First words of a function's name that say it computes a value from its arguments and changes
 * nothing (`convertRatesToList(price)`, `formatDate(d)`, `toDto(row)`): a project function out of
 * reach named so is a computation, like a pure package's.
 */
export const COMPUTE_VERBS: readonly string[] = [
  'convert',
  'parse',
  'format',
  'to',
  'compute',
  'calculate',
  'calc',
  'transform',
  'normalize',
  'serialize',
  'deserialize',
  'map',
  'sanitize',
  'escape',
  'slugify',
  'stringify',
];

/** Words that make a read-named method something more (`getOrCreate`, `fetchAndStore`, `loadNextJob`). */
export const ACTION_WORDS: readonly string[] = [
  'and',
  'or',
  'store',
  'process',
  'handle',
  'run',
  'execute',
  'apply',
  'import',
  'write',
  'commit',
  'flush',
  'persist',
  'mark',
  'trigger',
  'start',
  'stop',
  'claim',
  'lock',
  'next',
  'push',
  'add',
  'set',
];

/** Methods that send SQL text: a read only when the text is a `SELECT`. */
export const SQL_RUNNERS: readonly string[] = ['query', 'execute', '$queryRaw', '$queryRawUnsafe', 'raw', 'unsafe'];

/**
 * A URL whose GET runs work rather than reads: a path on this service (`/api/noon`, written from
 * its first character), or one named for a job or a trigger (`${appUrl}/cron/digest`, `/hooks/sync`).
 */
export const SERVICE_PATH = /^\//;
export const TRIGGER_URL_WORDS = /\b(cron|crons|jobs?|tasks?|trigger|run|sync|webhooks?|hooks?)\b/i;

/** HTTP methods that change nothing on the other side. */
export const READ_HTTP_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/** Modules of the file system (`fs.promises.rm`, `import { readdir } from 'fs/promises'`). */
export const FS_MODULES: readonly string[] = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'fs-extra', 'graceful-fs'];

/** File-system calls that only read (their `…Sync` forms too). */
export const FS_READS: readonly string[] = ['readdir', 'readFile', 'stat', 'lstat', 'access', 'exists', 'realpath', 'readlink', 'opendir'];

/**
 * File-system calls that write. The file system is this host's own disk (a pod's, a container's):
 * an export directory, an uploads folder, a log file, a backup written there is each replica's own,
 * wherever it sits. A shared volume is not told apart.
 */
export const FS_WRITES: readonly string[] = [
  'rm',
  'rmdir',
  'unlink',
  'writeFile',
  'appendFile',
  'mkdir',
  'mkdtemp',
  'rename',
  'copyFile',
  'cp',
  'utimes',
  'truncate',
  'remove',
  'emptyDir',
  'outputFile',
  'ensureDir',
];

/**
 * Words of a name, and a path's text, that say a directory mounted by every replica (`SHARE_DIRECTORY`,
 * `sharedFiles`, `/mnt/nfs/…`): a write there is not this host's own.
 */
export const SHARED_DIR_WORDS: readonly string[] = ['share', 'shares', 'shared', 'nfs', 'efs'];
export const SHARED_DIR_PATH = /(^|[\\/])(shares?|shared|nfs|efs)([\\/]|$)/i;

/** Words of a name that say "this host's cache or temporary directory" (`cacheDirectory`, `os.tmpdir()`): a write there stays here even under a shared word. */
export const LOCAL_DIR_WORDS: readonly string[] = ['cache', 'caches', 'cached', 'tmp', 'temp', 'tmpdir', 'temporary'];

/** The same in a path written out (`'../config/cache/images'`, `/tmp/uploads`). */
export const LOCAL_DIR_PATH = /(^|[\\/])\.?(cache|caches|tmp|temp)([\\/]|$)/i;

/** Packages whose functions compute and never leave the process. */
export const PURE_MODULES: readonly string[] = [
  // Observable helpers (`lastValueFrom(http.get(url))`): the call they wrap is judged on its own.
  'rxjs',
  'rxjs/operators',
  // A logger namespace (`require('debug')('jobs')`) writes to this process's stderr.
  'debug',
  'lodash',
  'lodash-es',
  'underscore',
  'ramda',
  'date-fns',
  'dayjs',
  'moment',
  'luxon',
  'uuid',
  'nanoid',
  'path',
  'node:path',
  'url',
  'node:url',
  'util',
  'node:util',
  'crypto',
  'node:crypto',
  'os',
  'node:os',
  'querystring',
  'node:querystring',
  'mime',
  'mime/lite',
  'mime-types',
  'semver',
  'ms',
  'bytes',
  // Feed builders (`new RSS(opts)`, `feed.item(…)`, `feed.xml()`): a document built in memory.
  'rss',
  'feed',
];

/**
 * Query operators of ORMs and query builders, by module: functions that build a criterion in memory
 * for a query judged on its own (`find({ where: { endAt: LessThan(date), status: In(open) } })`,
 * `where(and(eq(t.id, id), lt(t.at, cutoff)))`). Only these names: the same module's other
 * functions (`getRepository(User)`) hand out what sends the query.
 */
export const QUERY_OPERATORS: Readonly<Record<string, readonly string[]>> = {
  typeorm: [
    'In',
    'Not',
    'LessThan',
    'LessThanOrEqual',
    'MoreThan',
    'MoreThanOrEqual',
    'Equal',
    'Like',
    'ILike',
    'Between',
    'IsNull',
    'Any',
    'ArrayContains',
    'ArrayContainedBy',
    'ArrayOverlap',
    'And',
    'Or',
  ],
  'drizzle-orm': [
    'eq',
    'ne',
    'lt',
    'lte',
    'gt',
    'gte',
    'and',
    'or',
    'not',
    'inArray',
    'notInArray',
    'isNull',
    'isNotNull',
    'like',
    'ilike',
    'between',
    'asc',
    'desc',
  ],
};

/** Globals whose methods never leave the process, beyond those of the effects walk (`Promise.all`, `path.join`). */
export const HOST_LOCAL_OBJECTS: readonly string[] = ['Promise', 'path', 'URL', 'URLSearchParams'];

/**
 * In-process caches: each module with the cache classes it exports (their entries live in this
 * process only). Read both ways: by the class name where the module is not seen
 * (`new LRUCache(…)`), and by the module whatever the class is called where it is imported
 * (`import { LRUCache as Store } from 'lru-cache'`).
 */
export const IN_MEMORY_CACHES: Readonly<Record<string, readonly string[]>> = {
  'lru-cache': ['LRUCache', 'LRU'],
  lru_map: ['LRUMap'],
  'tiny-lru': ['LRU'],
  'quick-lru': ['QuickLRU'],
  'node-cache': ['NodeCache'],
  '@isaacs/ttlcache': ['TTLCache'],
  ttlcache: ['TTLCache'],
  mnemonist: ['LRUCache', 'LRUMap'],
};

/** Modules whose classes are in-process caches (the keys of IN_MEMORY_CACHES). */
export const IN_MEMORY_MODULES: readonly string[] = Object.keys(IN_MEMORY_CACHES);

/** Constructors that build a value in memory: the language's own, then the cache classes of IN_MEMORY_CACHES. */
export const IN_MEMORY_CONSTRUCTORS: readonly string[] = [
  'Date',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Array',
  'Error',
  'TypeError',
  'RangeError',
  'URL',
  'URLSearchParams',
  'RegExp',
  'Promise',
  'AbortController',
  'TextEncoder',
  'TextDecoder',
  ...new Set(Object.values(IN_MEMORY_CACHES).flat()),
];

/**
 * Steps of a query builder that only shape the query (`createQueryBuilder().from(…).where(…)`,
 * `collection.find(…).sort(…).limit(…)`, Mongoose `Model.find(…).populate(…)`): a chain of them ending in a read reads.
 */
export const QUERY_BUILDER_STEPS: readonly string[] = [
  'select',
  'addSelect',
  'from',
  'where',
  'andWhere',
  'orWhere',
  'whereIn',
  'whereNotNull',
  'whereNull',
  'having',
  'join',
  'leftJoin',
  'innerJoin',
  'leftJoinAndSelect',
  'innerJoinAndSelect',
  'orderBy',
  'addOrderBy',
  'groupBy',
  'addGroupBy',
  'limit',
  'offset',
  'skip',
  'take',
  'distinct',
  'sort',
  'project',
  'lean',
  'populate',
  'setParameter',
  'setParameters',
];

/** Methods of values already in memory (a response's body, a file's `Stats`, a promise, a number) that the effects walk does not list. */
export const IN_MEMORY_VALUE_METHODS: readonly string[] = [
  'json',
  'arrayBuffer',
  'blob',
  'then',
  'catch',
  'finally',
  'isDirectory',
  'isFile',
  'isSymbolicLink',
  'toFixed',
  'localeCompare',
  'match',
  'test',
  'substring',
  'charAt',
  'repeat',
  'replaceAll',
  'trimStart',
  'trimEnd',
  'toDateString',
  'toTimeString',
  'toUTCString',
  'toLocaleString',
  'toLocaleDateString',
  'toLocaleTimeString',
];

/** Methods that take the next item off an in-memory queue, and those that put one on. */
export const QUEUE_TAKE_METHODS: readonly string[] = ['shift', 'pop'];
export const QUEUE_PUT_METHODS: readonly string[] = ['push', 'unshift'];
/** File-system calls (their `…Sync` forms too) that read a queue kept in a file, and that write items into it. */
export const QUEUE_FILE_READS: readonly string[] = ['readFile', 'readJson'];
export const QUEUE_FILE_WRITES: readonly string[] = ['writeFile', 'appendFile', 'outputFile', 'writeJson', 'outputJson'];

/**
 * A command line that restarts or reloads this host's own processes (`pm2 reload api`, `systemctl restart
 * worker`): each host's process manager restarts what it runs, a replica's own upkeep.
 */
export const OWN_RESTART_COMMAND =
  /^\s*(?:sudo\s+)?(?:(?:npx\s+)?pm2\s+(?:reload|restart|gracefulReload)|systemctl\s+(?:reload|restart))\s/;

/**
 * Nouns after a host-local word that keep it a thing on this host's disk (`cleanupTempFiles`,
 * `removeTmpDir`); any other noun (`deleteTempUsers`) names records, and the work's writes decide.
 */
export const HOST_FILE_NOUNS: readonly string[] =
  'file files dir dirs directory directories folder folders path paths upload uploads download downloads chunk chunks cache caches copy copies data storage disk log logs image images media assets artifacts build builds backup backups'.split(
    ' ',
  );

/**
 * A chat client's own account (`client.user` of discord.js, a bot's `bot.user`) and the methods that
 * set what that connection shows (`client.user.setPresence({ … })`, `.setActivity('…')`): each
 * process's connection has its own presence, so every replica setting it writes nothing shared.
 */
export const OWN_ACCOUNT_PROPERTY = 'user';
export const OWN_PRESENCE_METHODS: readonly string[] = ['setPresence', 'setActivity', 'setStatus', 'setAFK'];
