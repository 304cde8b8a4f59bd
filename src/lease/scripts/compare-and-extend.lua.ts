import { defineRedisScript } from './redis-script.js';

/** KEYS[1] = lease key, ARGV[1] = owner, ARGV[2] = ttl ms. Returns 1 if extended, 0 if not ours. */
export const compareAndExtend = defineRedisScript(
  'compare-and-extend',
  `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`,
);
