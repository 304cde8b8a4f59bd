import { getManager } from './index.js';

/** Data fix-ups of one user's rows, applied after an import. */
export default async function runDataMigrations(userId: number): Promise<void> {
  await getManager().query('UPDATE entries SET kind = $1 WHERE owner = $2 AND kind IS NULL', ['manual', userId]);
}
