import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';

@Injectable()
export class LeaderLockService {
  private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');

  /** Whether this process holds `leader:<name>` for `ttlMs` (SET NX). */
  async holds(name: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`leader:${name}`, process.pid.toString(), 'PX', ttlMs, 'NX')) === 'OK';
  }
}
