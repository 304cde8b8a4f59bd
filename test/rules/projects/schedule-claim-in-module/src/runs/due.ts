import Redis from 'ioredis';

const redis = new Redis();

// Moves due run ids off the schedule set in one step: each id is handed to one caller.
redis.defineCommand('popDueRuns', {
  numberOfKeys: 1,
  lua: `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do redis.call('ZREM', KEYS[1], id) end
return ids`,
});

export async function takeDueRuns(now: number): Promise<string[]> {
  return (redis as unknown as { popDueRuns(key: string, now: number, limit: number): Promise<string[]> }).popDueRuns('runs:due', now, 100);
}
