import type { Request, Response } from 'express';
import { importData } from './imports.js';

export async function restoreBackup(req: Request, res: Response) {
  await importData(Number(req.params.user), req.body.entries);
  res.status(204).end();
}
