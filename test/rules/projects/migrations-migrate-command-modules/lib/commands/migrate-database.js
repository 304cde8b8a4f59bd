import { db } from '../database/client.js';

// The `migrate-database` command's module: an operator types it, whatever package holds it.
export default {
  async run() {
    await db.migrate.latest();
  },
};
