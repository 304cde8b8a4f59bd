import { store } from './schema';

// Named like a migrate entrypoint, imported by the server as a helper.
export async function migrateToLatest(): Promise<void> {
  await store.migrate.latest();
}
