import { Store, initDatabase, setupDatabase } from './db/store';

export async function main(): Promise<void> {
  const store = new Store();
  await setupDatabase(store);
  await initDatabase(store);
}
