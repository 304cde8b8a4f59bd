import { join } from 'node:path';
import { migrate as applyFolder } from 'postgres-schema-migrations';
import type { Pool } from 'pg';

export const migrateStore = async (db: Pool): Promise<void> => {
  const client = await db.connect();
  try {
    await applyFolder({ client }, join(__dirname, 'migrations'));
  } finally {
    client.release();
  }
};
