import knex from 'knex';

// The same steps, run by a script that is no database chore.
const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });

async function recount() {
  await db.migrate.rollback(undefined, true);
  await db.migrate.latest();
}

recount();
