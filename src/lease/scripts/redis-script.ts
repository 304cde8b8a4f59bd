import { createHash } from 'node:crypto';

/** One Lua script over exactly one key (`KEYS[1]`); arguments only through `ARGV`. */
export interface RedisScript {
  readonly name: string;
  readonly source: string;
  /** SHA1 of `source`, for EVALSHA. */
  readonly sha1: string;
}

export function defineRedisScript(name: string, source: string): RedisScript {
  return { name, source, sha1: createHash('sha1').update(source).digest('hex') };
}
