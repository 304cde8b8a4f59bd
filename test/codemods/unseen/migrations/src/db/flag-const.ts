import knex from 'knex';

const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
const shouldMigrate = process.env.POSTGRES_RUN_MIGRATIONS === 'true';

export async function ready(): Promise<void> {
  if (shouldMigrate) {
    await db.migrate.latest({ directory: './migrations' });
  }
  await db.raw('select 1');
}
