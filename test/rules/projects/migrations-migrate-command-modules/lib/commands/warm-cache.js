import { db } from '../database/client.js';

// A command folder's module named for something else: the folder alone says nothing of who runs it.
export default {
  async run() {
    await db.migrate.latest();
  },
};
