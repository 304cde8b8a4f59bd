import { redis } from './redis.js';

/** Runs `until` while holding `lock:<key>` (SET NX PX); throws when another process holds it. */
export async function lockUntilOrThrow<T>(key: string, until: () => Promise<T>, { ttlMs = 600_000 } = {}): Promise<T> {
  const acquired = await redis.set(`lock:${key}`, '1', { NX: true, PX: ttlMs });
  if (!acquired) throw new Error(`lock ${key} is held`);
  try {
    return await until();
  } finally {
    await redis.del(`lock:${key}`);
  }
}

/** Marks `key` as running (SET NX) but runs `until` whether or not the mark went in. */
export async function markRunning<T>(key: string, until: () => Promise<T>): Promise<T> {
  await redis.set(`running:${key}`, '1', { NX: true, PX: 600_000 });
  return until();
}
