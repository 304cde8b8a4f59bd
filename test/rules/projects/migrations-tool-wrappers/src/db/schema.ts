import { DataSource } from 'typeorm';

export const source = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });

// only the admin CLI and the tests call it
export async function revertLast(): Promise<void> {
  await source.undoLastMigration();
}

// only a test module (src/db/__tests__/) calls it
export const rebuildForTests = async (): Promise<void> => {
  await source.runMigrations();
};

// the server calls it as it starts (reported at that call), and so does the admin CLI
export async function applySchema(): Promise<void> {
  await source.runMigrations();
}

// no module of the package calls it: a sibling package may
export async function applyAll(): Promise<void> {
  await source.runMigrations();
}
