import { db } from './client.js';

// The same module outside a command folder: a helper whose callers decide when it runs.
export default {
  async run() {
    await db.migrate.latest();
  },
};
