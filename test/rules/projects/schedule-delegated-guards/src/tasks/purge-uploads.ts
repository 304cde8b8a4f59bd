import Redis from 'ioredis';
import { DataSource } from 'typeorm';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const dataSource = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });

export default {
  name: 'purge-uploads',
  async run(): Promise<void> {
    const owner = await redis.set('task:purge-uploads', '1', 'PX', 600_000, 'NX');
    if (!owner) return;
    await dataSource.query("DELETE FROM uploads WHERE orphaned = true");
  },
};
