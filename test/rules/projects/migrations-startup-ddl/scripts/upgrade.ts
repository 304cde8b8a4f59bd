import { migrateToCurrentVersion, upgradeSchema } from '../src/jobs/upgrade';

// The operator's upgrade command: runs once, then exits.
await migrateToCurrentVersion();
await upgradeSchema();
process.exit(0);
