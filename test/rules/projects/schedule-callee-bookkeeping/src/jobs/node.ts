import os from 'node:os';
import { db } from './db';
import { progressOf } from './progress';

// Each replica touches its own worker row, keyed by its host name.
export async function touchWorker(): Promise<void> {
  await db.$executeRaw`UPDATE workers SET seen_at = now() WHERE host = ${os.hostname()}`;
  await progressOf('worker').flush();
}
