import { source } from '../src/db-utils';

// Test support: a clean database for a test run.
export async function createInitialDb(): Promise<void> {
  await source.synchronize(true);
  await source.runMigrations();
}
