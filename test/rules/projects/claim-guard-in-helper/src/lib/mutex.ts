import { createClient } from 'redis';

const redis = createClient();

/** Waits for the key's lock (a Redis `SET NX` with an expiry), runs `work`, and releases it. */
export async function whileLocked<T>(key: string, work: () => Promise<T>): Promise<T> {
  const take = () => redis.set(`lock:${key}`, '1', { NX: true, PX: 60_000 });
  while (!(await take())) await new Promise((resolve) => setTimeout(resolve, 100));
  try {
    return await work();
  } finally {
    await redis.del(`lock:${key}`);
  }
}

/** Records the key as last seen (a plain `SET`: no lock), then runs `work`. */
export async function whileNoted<T>(key: string, work: () => Promise<T>): Promise<T> {
  await redis.set(`seen:${key}`, String(Date.now()), { PX: 60_000 });
  return work();
}
