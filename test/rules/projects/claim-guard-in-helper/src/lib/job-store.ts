import { prisma } from './db';

/** Moves a job from PENDING to RUNNING; true only for the caller that moved it. */
export async function markRunning(id: string): Promise<boolean> {
  const { count } = await prisma.job.updateMany({ where: { id, status: 'PENDING' }, data: { status: 'RUNNING' } });
  return count === 1;
}

/** Records the attempt; it claims nothing. */
export async function noteAttempt(id: string): Promise<void> {
  await prisma.attempt.create({ data: { jobId: id, at: new Date() } });
}
