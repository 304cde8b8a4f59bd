import { createServer } from 'node:http';
import { migrateToCurrentVersion, upgradeSchema } from './jobs/upgrade';

// Every replica runs the upgrade job as it starts; the lock only makes them take turns.
await migrateToCurrentVersion();
await upgradeSchema();
createServer((_req, res) => res.end('ok')).listen(3001);
