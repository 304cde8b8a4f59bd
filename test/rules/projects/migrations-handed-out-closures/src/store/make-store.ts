import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export const makeStore = (connectionString: string) => {
  const db = drizzle(new pg.Pool({ connectionString }));
  return [
    db,
    async () => {
      await migrate(db, { migrationsFolder: './drizzle' });
    },
  ] as const;
};
