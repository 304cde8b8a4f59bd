// What scheduled work touches, by name, for code read without types: calls that never leave the
// process, and receivers that are clients of something outside it. Plain data read by the
// effects heuristic of `no-unguarded-schedule` (analysis/scheduled-work/external-effects.ts).

import { LIBRARY_READS_WRITES } from './orm-reads-writes.js';

/** Free functions and constructors that never leave the process. */
export const IN_PROCESS_FUNCTIONS: ReadonlySet<string> = new Set([
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'Date',
  'Array',
  'Object',
  'RegExp',
  'Error',
  'structuredClone',
  'resolve',
  'reject',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
]);

/** Globals whose calls read the clock or shape a value, nothing more (`Date.now()`, `Math.max(…)`): a tally's values. */
export const PURE_GLOBALS: readonly string[] = ['Date', 'Math', 'JSON', 'Number', 'String'];

/** Objects whose methods never leave the process. */
export const IN_PROCESS_OBJECTS: ReadonlySet<string> = new Set([
  'console',
  'Math',
  'JSON',
  'Object',
  'Array',
  'Number',
  'String',
  'Date',
  'Reflect',
  'Symbol',
  'Buffer',
  'performance',
  'process',
  'os',
  'v8',
  'util',
  'crypto',
  'Intl',
  'Atomics',
]);

/** Methods of a logger that write one line (`log.info(…)`, `this.logger.debug(…)`, `console.warn(…)`). */
export const LOG_METHODS: readonly string[] = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'fatal', 'verbose'];

/** Methods of in-memory structures, loggers and metrics. */
export const IN_PROCESS_METHODS: ReadonlySet<string> = new Set([
  ...LOG_METHODS,
  'clear',
  'delete',
  'set',
  'get',
  'has',
  'hasOwnProperty',
  'add',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'forEach',
  'map',
  'filter',
  'reduce',
  'some',
  'every',
  'find',
  'findIndex',
  'includes',
  'indexOf',
  'keys',
  'values',
  'entries',
  'sort',
  'reverse',
  'slice',
  'concat',
  'join',
  'at',
  'fill',
  'flat',
  'flatMap',
  'toString',
  'toISOString',
  'toJSON',
  'getTime',
  'valueOf',
  'trim',
  'split',
  'replace',
  'toLowerCase',
  'toUpperCase',
  'startsWith',
  'endsWith',
  'padStart',
  'padEnd',
  'inc',
  'dec',
  'observe',
  'reset',
  'labels',
  'startTimer',
  'emit',
  'unref',
  'ref',
  'refresh',
  'hasRef',
  'gc',
  'now',
  'evict',
  'prune',
  'purgeStale',
]);

/** Receivers that are clients of something outside the process, whatever the method (`redis.set`). */
export const EXTERNAL_RECEIVER_WORDS: ReadonlySet<string> = new Set([
  'db',
  'database',
  'pool',
  'client',
  'knex',
  'prisma',
  'redis',
  'valkey',
  'repo',
  'repository',
  'http',
  'https',
  'axios',
  'api',
  'mailer',
  'mail',
  'smtp',
  'transporter',
  'queue',
  'producer',
  'publisher',
  'stripe',
  's3',
  'sqs',
  'sns',
  'kafka',
  'nats',
  'jetstream',
  'js',
  'em',
  'manager',
  'datasource',
  'connection',
  'conn',
  'sql',
  'pg',
  'mongo',
  'mongoose',
  'model',
  'collection',
  'service',
  'gateway',
  'storage',
  'bucket',
  'webhook',
  'boss',
  'agenda',
  'broker',
  'bus',
  'channel',
  'tx',
  'trx',
]);

/**
 * The members that hold a server's own open connections (`wss.clients`, `io.sockets.sockets`,
 * `io.sockets.clients()`, `server.connections`): what is sent on one of them reaches a peer
 * connected to this process only.
 */
export const OWN_CONNECTION_COLLECTIONS: readonly string[] = ['clients', 'sockets', 'connections'];

/**
 * `pruneConnections`, `closeSockets`: this process dropping its own connections. Housekeeping
 * beside a job's work (a pool tidied before a nightly batch) says nothing about the work itself.
 */
export const OWN_CONNECTION_DROP_PAIR: readonly [readonly string[], readonly string[]] = [
  ['clean', 'cleanup', 'close', 'prune', 'drop', 'evict'],
  ['connections', 'connection', 'sockets', 'socket', 'clients'],
];

/**
 * A read of who is connected to this process (`this.socketService.getAllConnectedUsers()`,
 * `gateway.connectedClients()`): a word of the method (`CONNECTED_WORDS`) on a receiver named for
 * the server's sockets (`SOCKET_HOLDER_WORDS`). Work over that set is split between the replicas.
 */
export const CONNECTED_WORDS: readonly string[] = ['connected'];
export const SOCKET_HOLDER_WORDS: readonly string[] = ['socket', 'sockets', 'gateway', 'ws', 'websocket', 'wss', 'io'];

/**
 * A socket.io server (`io`, `runtime.io`) and the methods that pick its rooms (`io.to(room)`): its
 * `emit` reaches the clients connected to this process. A bus or queue's `emit` is not one.
 */
export const SOCKET_SERVER_NAMES: readonly string[] = ['io'];
export const SOCKET_ROOM_METHODS: readonly string[] = ['to', 'in', 'except'];

/**
 * Lookups of one entry of a collection by its key (`client.channels.cache.get(id)`,
 * `client.channels.fetch(id)`): what they return is an entry of the collection they are called on.
 */
export const COLLECTION_LOOKUP_METHODS: readonly string[] = ['get', 'fetch', 'find', 'resolve'];

/** Links of a lookup's chain that name where entries are kept in this process, not what they are (`channels.cache`). */
export const LOOKUP_HOLDER_WORDS: readonly string[] = ['cache', 'store', 'registry'];

/** The lookup that, awaited, brings an entry from the server (`await client.users.fetch(id)`), not from memory. */
export const REMOTE_LOOKUP_METHOD = 'fetch';

/**
 * Methods that change an entry of an outside system in place, on the system's side: a chat
 * channel renamed or re-topiced, a message edited or pinned, a member banned or kicked
 * (`channel.setName(text)`, `member.ban()`). On an entry looked up in such a system's collection
 * they are calls to that system, like a send.
 */
export const ENTRY_WRITE_METHODS: readonly string[] = [
  'setName',
  'setTopic',
  'setNickname',
  'setPosition',
  'setParent',
  'edit',
  'pin',
  'unpin',
  'ban',
  'kick',
  'timeout',
];

/** What a process does to one of its own connections: send on it, ping it, close it. */
export const CONNECTION_METHODS: readonly string[] = ['send', 'emit', 'write', 'ping', 'terminate', 'close', 'end', 'disconnect'];

/**
 * A web stream this process builds to answer one request (`new ReadableStream({ start(controller) … })`):
 * the controller its source methods are given writes to that response only (an SSE heartbeat, a chunk).
 */
export const OWN_STREAM_CLASSES: readonly string[] = ['ReadableStream', 'TransformStream', 'WritableStream'];
export const OWN_STREAM_SOURCE_METHODS: readonly string[] = ['start', 'pull', 'transform', 'write'];

/**
 * The modules of a process's own threads — Node's, and the thread pools built on it (Piscina, also a
 * scoped fork of it such as `@acme/piscina`) — and the calls that message one of them
 * (`parentPort.postMessage(…)`, `worker.postMessage(…)`, a pool's `broadcastTask(…)` to each of its
 * threads): each replica reaches only its own threads.
 */
export const OWN_THREAD_MODULES: readonly string[] = ['worker_threads', 'node:worker_threads', 'piscina'];
export const OWN_THREAD_MESSAGE_METHODS: readonly string[] = ['postMessage', 'broadcastTask'];

/**
 * Methods that register this process as a worker of a queue or a subscriber of a channel
 * (pg-boss `boss.work(name, handler)`, Bull `queue.process(handler)`, amqplib
 * `channel.consume(q, handler)`, `nats.subscribe(subject, handler)`), and constructors that do the
 * same (BullMQ `new Worker(name, processor)`): the handler runs per job delivered, not per tick.
 */
export const WORKER_REGISTRATION_METHODS: readonly string[] = ['work', 'process', 'consume', 'subscribe'];
export const WORKER_CONSTRUCTORS: readonly string[] = ['Worker'];

/** Methods of a key-value store or cache that read one key (`kv.get(key)`), then filled on a miss by `CACHE_FILL_METHODS`. */
export const CACHE_READ_METHODS: readonly string[] = ['get'];
/** Methods that set one key to a value, key first and value second (`kv.set(key, value, ttl)`): a cache-aside fill when the key was read missing. */
export const CACHE_FILL_METHODS: readonly string[] = ['set'];

/**
 * A query builder started by calling the database handle with a table's name (knex's `knex('sessions')`,
 * `db('jobs')`, `this.knex('thumbnail_cache')`, a transaction's `trx('orders')`): by the handle's name, and the
 * methods at the end of its chain that send a write (`.where(…).del()`, `.update({ … })`).
 */
export const TABLE_BUILDER_HANDLE_WORDS: readonly string[] = ['knex', 'db', 'database', 'trx'];
export const TABLE_BUILDER_WRITE_METHODS: readonly string[] = [
  // knex's read-modify-write catalogue (orm-reads-writes.ts): `update`, and the atomic `increment` / `decrement`
  ...LIBRARY_READS_WRITES.knex.writes,
  ...LIBRARY_READS_WRITES.knex.atomicMethods,
  'del',
  'delete',
  'insert',
  'truncate',
  'upsert',
];
