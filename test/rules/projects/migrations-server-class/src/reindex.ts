import { updateDb } from './db-utils';

// Started by hand (`node dist/reindex.js`): brings the schema up to date, rebuilds, exits.
async function reindex() {
  await updateDb();
}

if (require.main === module) {
  reindex().then(() => process.exit(0));
}
