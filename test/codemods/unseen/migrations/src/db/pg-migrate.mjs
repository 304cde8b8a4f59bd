import { runner } from 'node-pg-migrate';
import { createServer } from './http.mjs';

export async function main() {
  await runner({
    databaseUrl: process.env.DATABASE_URL,
    dir: 'migrations',
    direction: 'up',
    migrationsTable: 'pgmigrations',
  });
  createServer().listen(3000);
}
