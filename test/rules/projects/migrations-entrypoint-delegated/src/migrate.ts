import { runPendingMigrations } from './db/runner';

await runPendingMigrations(process.env.POSTGRES_MIGRATE_URL!);
