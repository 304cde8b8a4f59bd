import { join } from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import type { PoolClient } from 'pg';

const LEDGER_LOCK = 4242;

export const applyLedgerFiles = async (client: PoolClient, dir: string): Promise<void> => {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [LEDGER_LOCK]);
    for (const name of files) await client.query(await readFile(join(dir, name), 'utf8'));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
};

export const applyLedgerFilesLoosely = async (client: PoolClient, dir: string): Promise<void> => {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  await client.query('SELECT pg_advisory_xact_lock($1)', [LEDGER_LOCK]);
  for (const name of files) await client.query(await readFile(join(dir, name), 'utf8'));
};
