import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';

// Called by the server at start-up: the package starts a server, whatever else it depends on.
export async function prepareDatabase(url: string) {
  const db = drizzle(url);
  await migrate(db, { migrationsFolder: './drizzle' });
}
