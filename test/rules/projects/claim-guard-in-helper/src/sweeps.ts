import { prisma } from './lib/db';
import { underSweepLease } from './lib/lease';
import { Turns } from './lib/turns';
import { recordSweep } from './lib/audit';
import { markRunning, noteAttempt } from './lib/job-store';

declare function closeTrial(trial: { id: string }): Promise<void>;
declare function mail(reminder: { id: string }): Promise<void>;
declare function notify(cart: { id: string }): Promise<void>;
declare function deliver(job: { id: string }): Promise<void>;

// The lease is taken by a helper of another module, around the work.
export async function expireTrials(): Promise<void> {
  await underSweepLease('trials', async () => {
    const trials = await prisma.trial.findMany({ where: { status: 'ACTIVE', endsAt: { lt: new Date() } } });
    for (const trial of trials) {
      await closeTrial(trial);
      await prisma.trial.update({ where: { id: trial.id }, data: { status: 'EXPIRED' } });
    }
  });
}

// The claim is taken by an injected service's method, before the read.
export class Reminders {
  constructor(private readonly turns: Turns) {}

  async sendDue(): Promise<void> {
    if (!(await this.turns.enter('reminders'))) return;
    const due = await prisma.reminder.findMany({ where: { sentAt: null } });
    for (const reminder of due) {
      await mail(reminder);
      await prisma.reminder.update({ where: { id: reminder.id }, data: { sentAt: new Date() } });
    }
  }
}

// The helper called first takes no lock: every replica picks the same open carts.
export async function closeAbandoned(): Promise<void> {
  await recordSweep('carts');
  const carts = await prisma.cart.findMany({ where: { state: 'OPEN' } });
  for (const cart of carts) {
    await notify(cart);
    await prisma.cart.update({ where: { id: cart.id }, data: { state: 'ABANDONED' } });
  }
}

// The row is claimed by a conditional transition in another module before it is worked on.
export async function runPending(): Promise<void> {
  const jobs = await prisma.job.findMany({ where: { status: 'PENDING' }, take: 20 });
  for (const job of jobs) {
    if (!(await markRunning(job.id))) continue;
    await deliver(job);
    await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });
  }
}

// The helper called first records the attempt and claims nothing: two replicas deliver the same job.
export async function retryFailed(): Promise<void> {
  const jobs = await prisma.job.findMany({ where: { status: 'FAILED' }, take: 20 });
  for (const job of jobs) {
    await noteAttempt(job.id);
    await deliver(job);
    await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });
  }
}
