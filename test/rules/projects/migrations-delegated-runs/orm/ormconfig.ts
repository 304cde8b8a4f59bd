import { DataSource } from 'typeorm';

export const toolingSource = new DataSource({
  type: 'postgres',
  url: process.env.POSTGRES_MIGRATE_URL,
  migrationsRun: true,
  migrations: ['dist/migrations/*.js'],
});
