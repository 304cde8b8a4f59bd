// The Redis clients a service creates, by where they are imported from. Plain data read by the
// `guard-schedules` codemod to wire `setLeaseClient(<client>)` right after the one client.

export interface RedisClientFactory {
  /** Module specifiers it is imported from. */
  modules: readonly string[];
  /** Export path inside the module; a CJS module's default import is the module object itself. */
  path: readonly string[];
  kind: 'call' | 'construct';
}

export const REDIS_CLIENT_FACTORIES: readonly RedisClientFactory[] = [
  // ioredis: `import Redis from 'ioredis'`, `import { Redis, Cluster } from 'ioredis'`, `require('ioredis')`.
  // The empty path is the module itself: the default import / `require` result is the class.
  { modules: ['ioredis', 'iovalkey'], path: [], kind: 'construct' },
  { modules: ['ioredis', 'iovalkey'], path: ['Redis'], kind: 'construct' },
  { modules: ['ioredis', 'iovalkey'], path: ['Cluster'], kind: 'construct' },
  // node-redis v4/v5.
  { modules: ['redis', '@redis/client'], path: ['createClient'], kind: 'call' },
  { modules: ['redis', '@redis/client'], path: ['createCluster'], kind: 'call' },
];

export const REDIS_CLIENT_MODULES: readonly string[] = [...new Set(REDIS_CLIENT_FACTORIES.flatMap((f) => f.modules))];

/** The runtime call that hands the client to the guards. */
export const LEASE_CLIENT_SETTER = 'setLeaseClient';

/**
 * A Redis write that only one caller can win: `SET key value NX …` (ioredis `set(k, v, 'PX', ms, 'NX')`,
 * node-redis `set(k, v, { NX: true })`) and `SETNX`. Taken before a read of rows, it is a lock.
 */
export const CONDITIONAL_SET_METHODS: readonly string[] = ['set', 'setnx', 'setNX'];
export const CONDITIONAL_SET_FLAG = 'NX';
/** What a `SET … NX` answers when it took the key (anything else: someone holds it). */
export const CONDITIONAL_SET_TAKEN_REPLY = 'OK';

/**
 * A Redis script that takes items off a shared structure runs atomically on the server: each item
 * goes to one caller, so a poll loop on every replica calling it claims rather than repeats.
 * ioredis custom commands are defined by `defineMethod(name, { [scriptOption]: lua })`.
 */
export const REDIS_ATOMIC_SCRIPTS = {
  defineMethod: 'defineCommand',
  scriptOption: 'lua',
  /** Commands that remove what they hand out (`ZREM` after `ZRANGEBYSCORE`, `LPOP`, `LMOVE`). */
  takeCommands: /\b(?:z?pop(?:min|max)?|[lr]pop|[bl]?[lr]?move|rpoplpush|brpoplpush|zrem|srem|spop|hdel|xclaim|xautoclaim)\b/i,
} as const;

/**
 * Redis commands that read a value into JavaScript, and the commands that write one back, as
 * `no-read-then-write` sees them. `key` is the key argument's index; `field` a hash field's
 * (`hGetAll`, `hSet(key, { … })` name no single field); `value` the index of the value written.
 * `json` marks RedisJSON's `client.json.get(…)` / `client.json.set(key, path, value)`.
 * Spelled as both clients spell them: ioredis lower case, node-redis v4/v5 camel case.
 */
export interface RedisValueCommand {
  method: string;
  json?: true;
  /** A read of several keys (`mget(a, b)`, `mGet([a, b])`): every argument is a key. */
  keys?: 'all';
  /** Index of the hash field; absent for a whole key or a whole hash. */
  field?: number;
  /** Index of the value written (writes only); a hash write without it takes `{ field: value }` or field/value pairs. */
  value?: number;
}

export const REDIS_VALUE_READS: readonly RedisValueCommand[] = [
  { method: 'get' },
  { method: 'hget', field: 1 },
  { method: 'hGet', field: 1 },
  { method: 'hgetall' },
  { method: 'hGetAll' },
  { method: 'mget', keys: 'all' },
  { method: 'mGet', keys: 'all' },
  { method: 'get', json: true },
];

export const REDIS_VALUE_WRITES: readonly RedisValueCommand[] = [
  { method: 'set', value: 1 },
  { method: 'setex', value: 2 },
  { method: 'setEx', value: 2 },
  { method: 'hset' },
  { method: 'hSet' },
  { method: 'hmset' },
  { method: 'hmSet' },
  { method: 'set', json: true, value: 2 },
];

/**
 * What makes a receiver a Redis client: its name (`redis`, `redisClient`, `this.valkey`), its
 * declared type (`Redis`, `RedisClientType`), its class (`new Redis(…)`, `new IORedis(…)`) or its
 * injection decorator (`@InjectRedis()`) all match this.
 */
export const REDIS_CLIENT_NAME = /redis|valkey/i;

/**
 * Names that are a Redis client only in a file that imports a Redis client module (`cache` may be
 * a Map, `client` an HTTP client): `const client = createClient()` is found by its declaration.
 */
export const REDIS_CLIENT_GENERIC_NAMES: readonly string[] = ['client', 'cache', 'cacheClient', 'store', 'kv'];

/**
 * Calls around a read-then-write of Redis that make it safe: WATCH before MULTI/EXEC (optimistic,
 * the EXEC fails when the key changed) and node-redis's isolated connection used for it. A MULTI
 * alone is not one: it makes the queued commands run together, not the read before them current.
 */
export const REDIS_OPTIMISTIC_CALLS: readonly string[] = ['watch', 'executeIsolated'];

/**
 * Calls that run a callback while holding a lock (Redlock `using`, `runExclusive`, `withLock`):
 * a read-then-write inside one is serialised.
 */
export const LOCK_WRAPPER_CALL = /^(?:using|runExclusive|runOnce|withLock|withMutex|lock|acquire)$/i;

/** Calls that take a lock held until released (`await redlock.acquire([key], ttl)`, `mutex.lock()`): what follows them in the function is serialised. */
export const LOCK_ACQUIRE_CALLS: readonly string[] = ['acquire', 'acquireLock', 'lock', 'tryLock'];

/** The atomic forms the rule's message names for Redis. */
export const REDIS_ATOMIC_FORM = 'INCRBY / HINCRBY / INCRBYFLOAT on the key (for a JSON value: a Lua script, or WATCH … MULTI/EXEC)';
