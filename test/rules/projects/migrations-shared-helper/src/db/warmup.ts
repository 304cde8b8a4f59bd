import { store } from './schema';

// Shared too, but the server calls it by a name that says nothing of migrations.
export async function prepareStore(): Promise<void> {
  await store.migrate.latest();
}
