import { connectJournalDb } from './store/journal';
import { connectLedgerDb } from './store/ledger';

export async function startStores() {
  await connectJournalDb();
  await connectLedgerDb();
}
