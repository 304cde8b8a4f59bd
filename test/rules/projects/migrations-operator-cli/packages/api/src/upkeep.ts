import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';

interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

// A data move named for a migration: it copies one key, and runs no migrator.
export async function migrateLegacySettings(store: Store) {
  const old = await store.get('settings');
  if (old !== undefined) await store.set('settings:v2', old);
}

// Named for the search index, but its body runs the schema migrator.
export async function migrateSearchIndex(url: string) {
  await migrate(drizzle(url), { migrationsFolder: './drizzle-search' });
}
