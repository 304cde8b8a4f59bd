import { db } from '../lib/db';

export async function rebuildSearchIndex(): Promise<void> {
  await db.query('REFRESH MATERIALIZED VIEW CONCURRENTLY search_documents');
}
