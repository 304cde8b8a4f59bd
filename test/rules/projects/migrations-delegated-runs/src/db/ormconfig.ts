import { DataSource } from 'typeorm';

export const ledgerSource = new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  migrationsRun: true,
});
