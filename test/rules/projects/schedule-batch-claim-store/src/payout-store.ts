import { PrismaClient } from '@prisma/client';

const prisma = new PrismaClient();

export interface Payout {
  id: string;
  amount: number;
}

export class PayoutStore {
  async takeDue(args: { limit: number; worker: string }): Promise<Payout[]> {
    const due = await prisma.payout.findMany({ where: { status: 'DUE', takenAt: null }, take: args.limit });
    const won: Payout[] = [];
    for (const row of due) {
      const result = await prisma.payout.updateMany({
        where: { id: row.id, takenAt: null },
        data: { takenAt: new Date(), takenBy: args.worker },
      });
      if (result.count === 1) won.push({ id: row.id, amount: row.amount });
    }
    return won;
  }

  async markAllDue(args: { limit: number }): Promise<Payout[]> {
    const due = await prisma.payout.findMany({ where: { status: 'DUE' }, take: args.limit });
    const touched: Payout[] = [];
    for (const row of due) {
      const result = await prisma.payout.updateMany({ where: { id: row.id }, data: { takenAt: new Date() } });
      if (result.count === 1) touched.push({ id: row.id, amount: row.amount });
    }
    return touched;
  }

  async settle(id: string): Promise<void> {
    await prisma.payout.update({ where: { id }, data: { status: 'PAID' } });
  }
}
