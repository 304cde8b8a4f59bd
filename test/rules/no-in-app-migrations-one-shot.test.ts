// A file that starts one run which ends the process when done — a set-up step a container runs
// before the server (`node setup/prepare-db.js <password>`), an async IIFE — is a command, not the
// server: its migrator call is not reported. A run that exits only on failure, only from a handler,
// or in a file that starts a server is still the app's start path.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const HEAD = lines("const knex = require('knex');", "const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });");

ruleTester.run('no-in-app-migrations (one-shot runs)', rule, {
  valid: [
    // a set-up step: its function ends the process, the start-up call only catches
    {
      code: lines(
        HEAD,
        'async function prepare() {',
        '  const [adminPassword] = process.argv.slice(2);',
        '  await store.migrate.latest();',
        "  await store('accounts').where({ id: 1 }).update({ secret: adminPassword });",
        '  process.exit(0);',
        '}',
        'prepare().catch((error) => { console.error(error); process.exit(1); });',
      ),
      filename: 'server/setup/prepare-db.js',
    },
    // an async IIFE that exits when done
    {
      code: lines(HEAD, '(async () => {', '  await store.migrate.latest();', '  process.exit();', '})();'),
      filename: 'tools/bring-up.js',
    },
    // a `const` arrow started with `void`, exiting through `.then`
    {
      code: lines(
        HEAD,
        'const run = async () => {',
        '  await store.migrate.latest();',
        '  store.destroy().then(() => process.exit(0));',
        '};',
        'void run();',
      ),
      filename: 'src/upgrade.js',
    },
  ],
  invalid: [
    // a worker: it exits only when start-up fails
    {
      code: lines(
        HEAD,
        'async function main() {',
        '  try {',
        '    await store.migrate.latest();',
        '    startConsumers();',
        '  } catch (error) {',
        '    process.exit(1);',
        '  }',
        '}',
        'main();',
      ),
      filename: 'src/worker.js',
      errors: [call(5, 11)],
    },
    // exits only from a signal handler
    {
      code: lines(
        HEAD,
        'async function main() {',
        '  await store.migrate.latest();',
        "  process.on('SIGTERM', () => process.exit(0));",
        '}',
        'main();',
      ),
      filename: 'src/consumer.js',
      errors: [call(4, 9)],
    },
    // the file starts a server
    {
      code: lines(
        HEAD,
        'async function main() {',
        '  await store.migrate.latest();',
        '  app.listen(3000);',
        '  process.exit(0);',
        '}',
        'main();',
      ),
      filename: 'src/index.js',
      errors: [call(4, 9)],
    },
    // the function that exits is not the one started
    {
      code: lines(
        HEAD,
        'function stop() {',
        '  process.exit(0);',
        '}',
        'async function main() {',
        '  await store.migrate.latest();',
        '}',
        'main();',
      ),
      filename: 'src/boot.js',
      errors: [call(7, 9)],
    },
  ],
});
