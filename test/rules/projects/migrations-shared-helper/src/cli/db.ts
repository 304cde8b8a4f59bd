import { migrateLatest } from '../db/schema';

// The file the db:migrate script runs: the migrate entrypoint.
async function main(): Promise<void> {
  if (process.argv[2] === 'migrate') await migrateLatest();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
