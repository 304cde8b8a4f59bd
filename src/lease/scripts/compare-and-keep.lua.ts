import { defineRedisScript } from './redis-script.js';

/**
 * KEYS[1] = lease key, ARGV[1] = owner, ARGV[2] = ttl ms. Keeps a finished job's key for ttl:
 * 1 when `owner` still held it (extended), 2 when it had expired and nobody took it (set again
 * for `owner`), 0 when another owner holds it (left untouched).
 */
export const compareAndKeep = defineRedisScript(
  'compare-and-keep',
  `local value = redis.call('GET', KEYS[1])
if value == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not value then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0`,
);
