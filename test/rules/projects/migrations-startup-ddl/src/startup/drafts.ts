import { createClient } from '@libsql/client';

const local = createClient({ url: 'file:/var/lib/boards/drafts.db' });

// A local libSQL file per host.
export async function migrateDraftSchema() {
  await local.execute('CREATE TABLE IF NOT EXISTS draft (id TEXT PRIMARY KEY, body TEXT)');
}
