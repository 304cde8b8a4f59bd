import { DataSource } from 'typeorm';
import { pingDb, setupDatabase } from './db/knex';
import options from './db/options';

export async function main() {
  await pingDb();
  await setupDatabase();
  const source = new DataSource(options);
  await source.initialize();
}
