import store from './store/local';
import { cache } from './store/cache';
import { shared } from './store/shared';

export async function boot() {
  const local = await store.initialize();
  await local.runMigrations();
  await cache.migrate.latest();
  await shared.runMigrations();
}
