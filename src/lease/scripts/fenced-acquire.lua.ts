import { defineRedisScript } from './redis-script.js';

/**
 * KEYS[1] = lease key, KEYS[2] = its fencing-token key (same hash slot); ARGV[1] = owner,
 * ARGV[2] = ttl ms, ARGV[3] = how long the token key outlives the lease, ms.
 * Returns 0 when another owner holds the lease; otherwise takes it and returns its fencing token:
 * max(the key's previous token + 1, the server clock in microseconds). The clock keeps tokens
 * increasing after the token key expires; the counter keeps them increasing if the clock steps back.
 */
export const fencedAcquire = defineRedisScript(
  'fenced-acquire',
  `if redis.replicate_commands then pcall(redis.replicate_commands) end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 0
end
local now = redis.call('TIME')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('GET', KEYS[2]))
if last and last >= token then token = last + 1 end
redis.call('SET', KEYS[2], string.format('%.0f', token), 'PX', tonumber(ARGV[2]) + tonumber(ARGV[3]))
return token`,
);
