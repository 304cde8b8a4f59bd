import { prisma, pool } from '../lib/db';
import { markImportRunning, noteImportSeen, setSyncRunning, startSync } from '../lib/sync-state';
import { fetchRemote, importRows } from './remote';

// The flag checked here, set by a helper of another module: not atomic.
export async function syncAccount(accountId: string) {
  const account = await prisma.account.findUnique({ where: { id: accountId } });
  if (!account || account.syncRunning) return;
  await setSyncRunning(accountId, true);
  try {
    await fetchRemote(account.id);
  } finally {
    await setSyncRunning(accountId, false);
  }
}

// The helper claims the turn with a checked conditional update: atomic.
export async function syncAccountClaimed(accountId: string) {
  const account = await prisma.account.findUnique({ where: { id: accountId } });
  if (!account || account.syncRunning) return;
  if (!(await startSync(accountId))) return;
  await fetchRemote(account.id);
  await setSyncRunning(accountId, false);
}

// A SQL flag checked on the row read, set by a helper of another module.
export async function runImport(importId: string) {
  const { rows } = await pool.query('SELECT import_running FROM imports WHERE id = $1', [importId]);
  if (rows[0]?.import_running) return;
  await markImportRunning(importId);
  await importRows(importId);
}

// The helper called after the check writes another column: the flag is never set here.
export async function peekImport(importId: string) {
  const { rows } = await pool.query('SELECT import_running FROM imports WHERE id = $1', [importId]);
  if (rows[0]?.import_running) return;
  await noteImportSeen(importId);
}
