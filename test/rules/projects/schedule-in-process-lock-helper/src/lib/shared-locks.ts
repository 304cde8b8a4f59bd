// Locks every replica sees: a Redis key set only when absent, a transaction advisory lock.
import Redis from 'ioredis';
import { db } from './db.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');

/** Runs `task` while holding `lock:<name>` in Redis; skips it when another process holds it. */
export async function withLock<T>(name: string, task: () => Promise<T>): Promise<T | undefined> {
  const taken = await redis.set(`lock:${name}`, '1', 'PX', 600_000, 'NX');
  if (taken !== 'OK') return undefined;
  try {
    return await task();
  } finally {
    await redis.del(`lock:${name}`);
  }
}

/** Runs `task` inside a transaction that holds the advisory lock `key`. */
export async function runLocked<T>(key: number, task: () => Promise<T>): Promise<T | undefined> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [key]);
    if (!rows[0].locked) return undefined;
    const result = await task();
    await client.query('COMMIT');
    return result;
  } finally {
    client.release();
  }
}
