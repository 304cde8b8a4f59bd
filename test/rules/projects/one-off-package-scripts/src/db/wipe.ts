import knex from 'knex';

// Drops every table and builds the schema again: an operator's reset of a development database.
const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });

async function wipe() {
  await db.migrate.rollback(undefined, true);
  await db.migrate.latest();
}

wipe();
