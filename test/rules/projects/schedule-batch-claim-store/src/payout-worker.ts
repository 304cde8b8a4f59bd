import { PayoutStore } from './payout-store';
import { sendTransfer } from './transfers';

const store = new PayoutStore();

async function drainClaimed() {
  const batch = await store.takeDue({ limit: 20, worker: `payouts-${process.pid}` });
  if (!batch.length) return;
  for (const payout of batch) {
    await sendTransfer(payout.id, payout.amount);
    await store.settle(payout.id);
  }
}

async function drainAll() {
  const batch = await store.markAllDue({ limit: 20 });
  if (!batch.length) return;
  for (const payout of batch) {
    await sendTransfer(payout.id, payout.amount);
    await store.settle(payout.id);
  }
}

export function startPayouts() {
  setInterval(() => {
    drainClaimed().catch((error) => console.error(error));
  }, 5_000);
  setInterval(() => {
    drainAll().catch((error) => console.error(error));
  }, 5_000);
}
