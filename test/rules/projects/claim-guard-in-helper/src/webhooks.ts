import { prisma } from './lib/db';
import { whileLocked, whileNoted } from './lib/mutex';

declare function settle(payout: { id: string }): Promise<void>;

// The transfer's payouts are read and settled under a lock of a project helper built on Redis SET NX.
export async function onTransferPaid(transferId: string): Promise<void> {
  await whileLocked(`transfer:${transferId}`, async () => {
    const payouts = await prisma.payout.findMany({ where: { transferId, status: 'PROCESSING' } });
    for (const payout of payouts) {
      await settle(payout);
      await prisma.payout.update({ where: { id: payout.id }, data: { status: 'PAID' } });
    }
  });
}

// The helper only notes the key: no lock, so two deliveries both retry the failed payout.
export async function onTransferRetried(transferId: string): Promise<void> {
  await whileNoted(`transfer:${transferId}`, async () => {
    const failed = await prisma.payout.findFirst({ where: { transferId, status: 'FAILED' } });
    if (failed) await settle(failed).then(() => prisma.payout.update({ where: { id: failed.id }, data: { status: 'PAID' } }));
  });
}
