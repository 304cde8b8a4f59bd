import { DataSource } from 'typeorm';
import knex from 'knex';

export const dataSource = new DataSource({ type: 'postgres', synchronize: true });

export async function boot() {
  const db = knex({ client: 'pg' });
  await db.migrate.latest();
}
