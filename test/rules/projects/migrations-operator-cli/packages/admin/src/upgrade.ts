import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';

// An operator's upgrade step: run by hand from the admin tool, never by a replica.
export async function upgradeToV2(url: string) {
  const db = drizzle(url);
  await migrate(db, { migrationsFolder: './drizzle' });
}
