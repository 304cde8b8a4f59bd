import { Queue } from 'bullmq';

export const notifications = new Queue('notifications', { connection: { host: process.env.REDIS_HOST ?? 'localhost' } });
