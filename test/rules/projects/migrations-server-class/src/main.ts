import { AppServer } from './app-server';
import { updateDb } from './db-utils';

export async function main() {
  if (process.env.TEST_CLEAN_DATABASE) {
    const { createInitialDb } = require('../test/seed');
    await createInitialDb();
  } else {
    await updateDb();
  }
  const server = await AppServer.create(8484);
  await server.run();
}

if (require.main === module) {
  main().catch(() => process.exit(1));
}
