import { createServer } from 'node:http';
import { Pool } from 'pg';
import { migrate } from './migrate';
import { migrate as migrateFromCli } from './cli/migrate';
import applyMigrationFiles from './db/migrate';

export async function start() {
  await migrate();
  await migrateFromCli();
  await applyMigrationFiles(new Pool());
  createServer((_req, res) => res.end('ok')).listen(3000);
}
