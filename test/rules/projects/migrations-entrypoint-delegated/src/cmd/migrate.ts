import { runMigrationFiles } from '../db/plain-runner';

await runMigrationFiles(process.env.POSTGRES_MIGRATE_URL!);
