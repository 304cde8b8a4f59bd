import { DataSource } from 'typeorm';

// read by the TypeORM CLI only
export default new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  synchronize: process.env.DB_SYNCHRONIZE === 'true',
  migrationsRun: true,
  migrations: ['dist/database/migrations/*.js'],
});
