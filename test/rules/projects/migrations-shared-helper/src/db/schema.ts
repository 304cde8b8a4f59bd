import knex from 'knex';

export const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });

// Shared by the server's start and the command-line tools.
export async function migrateLatest(): Promise<void> {
  await store.migrate.latest();
}
