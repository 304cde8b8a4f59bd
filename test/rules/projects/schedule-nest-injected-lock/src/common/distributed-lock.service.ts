import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';

export interface HeldLock {
  release(): Promise<void>;
}

@Injectable()
export class DistributedLockService {
  private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');

  async acquire(key: string, ttlMs: number): Promise<HeldLock | null> {
    const token = Math.random().toString(36).slice(2);
    const ok = await this.redis.set(`lock:${key}`, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    return { release: async () => void (await this.redis.del(`lock:${key}`)) };
  }
}
