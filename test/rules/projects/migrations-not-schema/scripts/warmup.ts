import { DataSource } from 'typeorm';

const source = new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL, entities: [] });

export async function seed() {
  await source.initialize();
  await source.dropDatabase();
  await source.runMigrations();
}
