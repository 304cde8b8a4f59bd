import { createServer } from 'node:http';
import { loadSeedRows, syncDatabaseSchema } from './db/schema-sync';

export async function start(port: number) {
  if (process.env.SYNC_SCHEMA_ON_BOOT === 'yes') syncDatabaseSchema();
  await loadSeedRows();
  createServer().listen(port);
}
