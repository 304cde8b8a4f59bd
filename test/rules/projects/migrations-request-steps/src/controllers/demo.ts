import runDataMigrations from '../models/data-fixes.js';

/** Demo entries for a fresh account; the server also loads them for user 0 as it starts. */
export const loadDemo = async (userId: number) => {
  const { getManager } = await import('../models/index.js');
  await getManager().query('INSERT INTO entries (owner, amount) VALUES ($1, 5)', [userId]);
  return runDataMigrations(userId);
};

export async function createDemo(req: { params: { user: string } }, res: { end(): void }) {
  await loadDemo(Number(req.params.user));
  res.end();
}
