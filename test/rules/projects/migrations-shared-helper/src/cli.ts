import { migrateLatest } from './db/schema';
import { migrateToLatest } from './db/migrate';
import { prepareStore } from './db/warmup';

// The package's bin: an operator's command that runs once and exits.
switch (process.argv[2]) {
  case 'migrate':
    await migrateLatest();
    break;
  case 'migrate:helper':
    await migrateToLatest();
    break;
  case 'prepare':
    await prepareStore();
    break;
  default:
    console.log('usage: orders migrate');
}
process.exit(0);
