import { prisma } from './lib/db';
import { underSweepLease } from './lib/lease';
import { Turns } from './lib/turns';
import { recordSweep } from './lib/audit';

declare function closeTrial(trial: { id: string }): Promise<void>;
declare function mail(reminder: { id: string }): Promise<void>;
declare function notify(cart: { id: string }): Promise<void>;

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
