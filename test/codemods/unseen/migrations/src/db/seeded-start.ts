import knex from 'knex';

const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });

export async function startWithMigrations(): Promise<void> {
  const [batch, applied] = await db.migrate.latest();
  console.log(`batch ${batch}: ${applied.length} migrations applied`);
}
