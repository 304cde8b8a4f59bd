import { join } from 'node:path';
import { Client } from 'pg';
import { applyLedgerFilesLoosely } from '../src/store';

const client = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });
await client.connect();
try {
  await applyLedgerFilesLoosely(client as never, join(__dirname, '../ledger-migrations'));
} finally {
  await client.end();
}
