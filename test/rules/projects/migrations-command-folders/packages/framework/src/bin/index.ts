import minimist from 'minimist';
import { migrateDatabase } from '../server/schema';

// The program behind the package's `bin`: dispatches the typed command.
export async function run() {
  const args = minimist(process.argv.slice(2));
  if (args._[0] === 'migrate') {
    await migrateDatabase();
    process.exit(0);
  }
}
