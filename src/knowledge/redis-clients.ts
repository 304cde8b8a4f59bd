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
