import type { Queue } from 'bullmq';
import { notifications } from './connection.js';

/** One digest job per day, whichever replica enqueues it first: the job id makes the others no-ops. */
export async function enqueueDailyDigest(queue: Queue = notifications): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  await queue.add('daily-digest', { day }, { jobId: `daily-digest:${day}` });
}
