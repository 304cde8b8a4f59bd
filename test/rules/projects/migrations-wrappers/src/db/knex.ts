import knex from 'knex';

export const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });

async function bringUpToDate() {
  await db.migrate.latest();
}

/** What the app calls at boot: two calls away from the migrator. */
export async function setupDatabase() {
  await bringUpToDate();
}

export async function pingDb() {
  await db.raw('select 1');
}
