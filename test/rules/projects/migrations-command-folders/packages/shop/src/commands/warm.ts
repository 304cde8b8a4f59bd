import { db } from '../database';

// A service with no `bin`: a `commands` folder says nothing of who runs it.
export async function warm() {
  await db.migrate.latest();
}
