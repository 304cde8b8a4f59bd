import knex from 'knex';

// Run before `knex migrate:latest`: renames recorded entries after a file rename. No DDL.
const db = knex({ client: 'pg', connection: process.env.POSTGRES_MIGRATE_URL });

async function renameEntries() {
  const rows = await db('knex_migrations').where('name', 'like', '%.js');
  for (const row of rows) await db('knex_migrations').where('id', row.id).update({ name: row.name.replace(/\.js$/, '.ts') });
  await db.destroy();
}

renameEntries();
