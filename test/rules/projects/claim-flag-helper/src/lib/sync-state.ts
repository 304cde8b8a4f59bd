import { pool, prisma } from './db';

// Sets or clears the flag by id alone: whoever calls it last wins.
export async function setSyncRunning(accountId: string, running: boolean) {
  await prisma.account.update({ where: { id: accountId }, data: { syncRunning: running, syncedAt: new Date() } });
}

// Claims the turn in one conditional statement and says whether this caller won it.
export async function startSync(accountId: string): Promise<boolean> {
  const { count } = await prisma.account.updateMany({ where: { id: accountId, syncRunning: false }, data: { syncRunning: true } });
  return count === 1;
}

export async function markImportRunning(importId: string) {
  await pool.query('UPDATE imports SET import_running = true WHERE id = $1', [importId]);
}

// Only writes when the import last ran.
export async function noteImportSeen(importId: string) {
  await pool.query('UPDATE imports SET seen_at = now() WHERE id = $1', [importId]);
}
