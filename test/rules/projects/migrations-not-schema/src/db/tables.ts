import { execute } from '@notes/database';
import { createNotesTable } from './statements';

// No database named here: the DDL is sent by a function of another module.
export async function runMigrations() {
  await createNotesTable();
}

// No database named here either: `execute` comes from a module named for the database.
export async function applyMigrations(texts: string[]) {
  for (const text of texts) await execute(text);
}
