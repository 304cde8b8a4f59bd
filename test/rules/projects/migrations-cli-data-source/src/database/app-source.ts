import { DataSource } from 'typeorm';

// read by the TypeORM CLI, and imported by the app as it starts
export const appSource = new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  migrationsRun: true,
  migrations: ['dist/database/migrations/*.js'],
});
