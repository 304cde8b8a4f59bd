import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export function makeLedger(connectionString: string) {
  const ledger = drizzle(new pg.Pool({ connectionString }));
  return {
    ledger,
    prepare: async () => {
      await migrate(ledger, { migrationsFolder: './ledger-drizzle' });
    },
  };
}
