import type { Request, Response } from 'express';
import runDataMigrations from '../models/data-fixes.js';
import { getManager } from '../models/index.js';

export async function importData(userId: number, entries: unknown[]) {
  await getManager().getRepository('entries').save(entries);
  await runDataMigrations(userId);
}

export async function importFile(req: Request, res: Response) {
  await importData(Number(req.params.user), req.body);
  res.status(204).end();
}
