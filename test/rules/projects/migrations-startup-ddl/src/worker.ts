import { withAdvisoryLock } from './lock';
import { migrateSessionColumn } from './startup/session-column';
import { migrateLabelTable } from './startup/labels';

// The worker's start: one start-up step handed to a locked block, one not; both run at every start.
export async function startWorker() {
  await withAdvisoryLock(1, async () => {
    await migrateSessionColumn();
  });
  await migrateLabelTable();
}
