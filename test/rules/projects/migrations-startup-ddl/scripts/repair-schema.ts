import { migrateSessionColumn } from '../src/startup/session-column';
import { migrateCardIndexes } from '../src/startup/indexes';

// An operator's one-shot repair: runs once, then exits.
await migrateSessionColumn();
await migrateCardIndexes();
process.exit(0);
