import { db } from '../database';

// The framework's server start: outside the command folders.
export async function boot() {
  await db.migrate.latest();
}
