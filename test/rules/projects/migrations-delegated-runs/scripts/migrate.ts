import { migrateStore, openStore } from '../src/store';

const db = openStore(process.env.POSTGRES_MIGRATE_URL);
migrateStore(db)
  .then(() => db.end())
  .catch(async (error: unknown) => {
    console.error(error);
    await db.end();
    process.exit(1);
  });
