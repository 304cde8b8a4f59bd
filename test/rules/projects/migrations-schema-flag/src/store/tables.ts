import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';

export const pool = new Pool({ connectionString: process.env.DATABASE_URL });

export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  balance: integer('balance').notNull(),
});

export const db = drizzle(pool);
