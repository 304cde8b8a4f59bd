import { defineRedisScript } from './redis-script.js';

/** KEYS[1] = lease key, ARGV[1] = owner. Returns 1 if deleted, 0 if not ours (left untouched). */
export const compareAndDelete = defineRedisScript(
  'compare-and-delete',
  `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`,
);
