import { db } from './db';
import { progressOf } from './progress';

// Takes the oldest pending render and marks it running; the progress flush is bookkeeping.
export async function renderNext(): Promise<void> {
  const job = await db.render.findFirst({ where: { status: 'pending' } });
  if (!job) return;
  const progress = progressOf(job.id);
  await db.render.update({ where: { id: job.id }, data: { status: 'running' } });
  await progress.flush();
}

// Reads the queue length and flushes the buffer: nothing shared is written.
export async function reportQueue(): Promise<void> {
  const waiting = await db.render.count({ where: { status: 'pending' } });
  const progress = progressOf('queue');
  progress.note(String(waiting));
  await progress.flush();
}
