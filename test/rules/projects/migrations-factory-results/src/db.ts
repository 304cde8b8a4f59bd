import { Kysely, PostgresDialect } from 'kysely';
import { Sequelize } from 'sequelize';
import pg from 'pg';

export const warehouse = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) }) });
export const orders = new Sequelize(process.env.ORDERS_URL ?? '', { dialect: 'postgres' });
