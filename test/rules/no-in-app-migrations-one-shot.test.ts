// A file that starts one run which ends the process when done — a set-up step a container runs
// before the server (`node setup/prepare-db.js <password>`), an async IIFE — is a command, not the
// server: its migrator call is not reported; so is a node-style script whose spawn's callback exits. A run that exits only on failure, only from a handler,
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
    // a set-up step a container runs before the server: its IIFE closes the client in `finally`, failing with `process.exitCode`
    {
      code: lines(
        HEAD,
        '(async () => {',
        '  try {',
        '    await store.migrate.latest();',
        '    await store.seed.run();',
        '  } catch (error) {',
        '    process.exitCode = 1;',
        '    throw error;',
        '  } finally {',
        '    store.destroy();',
        '  }',
        '})();',
      ),
      filename: 'server/db/bootstrap.js',
    },
    // a function that closes its pool as its last statement
    {
      code: lines(
        "import { drizzle } from 'drizzle-orm/node-postgres';",
        "import { migrate } from 'drizzle-orm/node-postgres/migrator';",
        "import { Pool } from 'pg';",
        'const pool = new Pool({ connectionString: process.env.DATABASE_URL });',
        'async function prepare(): Promise<void> {',
        "  await migrate(drizzle(pool), { migrationsFolder: './drizzle' });",
        '  await pool.end();',
        '}',
        'prepare().catch((error) => { console.error(error); process.exitCode = 1; });',
      ),
      filename: 'src/setup/prepare.ts',
    },
    // a node-style script: the spawn's callback ends the process whatever the outcome
    {
      code: lines(
        "import { exec } from 'node:child_process';",
        "exec('npx sequelize-cli db:migrate', (error, stdout) => {",
        '  console.log(stdout);',
        '  process.exit(error ? 1 : 0);',
        '});',
      ),
      filename: 'src/db/apply.js',
    },
  ],
  invalid: [
    // a server's signal listener exits, not the run; the callback that exits only on failure neither
    ...[
      ["process.on('SIGTERM', () => process.exit(0));"],
      ["exec('npx sequelize-cli db:seed:all', (error) => {", '  if (error) process.exit(1);', '});'],
      ["exec('npx sequelize-cli db:seed:all').on('exit', (error) => process.exit(0));"],
      ["process.on('uncaughtException', (error) => {", '  console.error(error);', '  process.exit(1);', '});'],
    ].map((tail) => ({
      code: lines("import { exec, execSync } from 'node:child_process';", "execSync('npx sequelize-cli db:migrate');", ...tail),
      filename: 'src/boot.js',
      errors: [{ messageId: 'schemaWriteCommand' as const, line: 2, column: 1 }],
    })),
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
    // the same IIFE whose `finally` only logs, or closes the client only when start-up fails: the start path
    ...[
      ['  } finally {', "    console.log('started');"],
      ['  } catch (error) {', '    await store.destroy();', '    throw error;'],
    ].map((handler) => ({
      code: lines(
        HEAD,
        '(async () => {',
        '  try {',
        '    await store.migrate.latest();',
        '    startConsumers(store);',
        ...handler,
        '  }',
        '})();',
      ),
      filename: 'server/db/bootstrap.js',
      errors: [call(5, 11)],
    })),
    // closing in `finally` in a file that starts a server
    {
      code: lines(
        HEAD,
        "const app = require('./app');",
        '(async () => {',
        '  try {',
        '    await store.migrate.latest();',
        "    await new Promise((resolve) => app.listen(3000).on('close', resolve));",
        '  } finally {',
        '    await store.destroy();',
        '  }',
        '})();',
      ),
      filename: 'src/main.js',
      errors: [call(6, 11)],
    },
  ],
});
