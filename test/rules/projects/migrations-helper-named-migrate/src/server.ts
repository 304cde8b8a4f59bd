import { createServer } from 'node:http';
import { Pool } from 'pg';
import { migrate } from './migrate';
import { migrate as migrateFromCli } from './cli/migrate';
import applyMigrationFiles from './db/migrate';
import { migrateWithUrl } from './lib/migrate';

export async function start() {
  await migrate();
  await migrateFromCli();
  await applyMigrationFiles(new Pool());
  await migrateWithUrl(process.env.DATABASE_URL!);
  createServer((_req, res) => res.end('ok')).listen(3000);
}
