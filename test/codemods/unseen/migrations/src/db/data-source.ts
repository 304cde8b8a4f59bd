import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { Account } from '../modules/account.entity';
import { Session } from '../modules/session.entity';

export const AppDataSource = new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  entities: [Account, Session],
  migrations: ['dist/migrations/*.js'],
  synchronize: process.env.NODE_ENV !== 'production',
  logging: false,
});
