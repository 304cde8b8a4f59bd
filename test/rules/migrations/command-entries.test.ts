// A migrator call inside the entry of a command table named for migrating (`{ name: 'db:migrate',
// execute }`, yargs' `{ command: 'migrate [dir]', handler }`) runs when an operator types that
// command. The same call in another command's entry (`start`), or in an entry named for something
// else, is on the path a replica takes.
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const KNEX = "import { knex } from './db';";
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const table = (name: string, key = 'name', fn = 'execute: () => knex.migrate.latest(),') =>
  lines(
    KNEX,
    'const commands = [',
    `  { ${key}: '${name}', ${fn} },`,
    "  { name: 'reset-password', execute: resetPassword },",
    '];',
    'export const run = (argv: string[]) => commands.find((c) => c.name === argv[0])?.execute();',
  );

ruleTester.run('no-in-app-migrations: command tables', rule, {
  valid: [
    { code: table('db:migrate'), filename: '/srv/app/src/cli/index.ts' },
    { code: table('migrate'), filename: '/srv/app/src/tools/commands.ts' },
    {
      code: table('migrate [dir]', 'command', 'handler: async () => { await knex.migrate.latest(); },'),
      filename: '/srv/app/src/tools/commands.ts',
    },
    { code: table('migration:run', 'name', 'async run() { await knex.migrate.latest(); },'), filename: '/srv/app/src/tools/commands.ts' },
  ],
  invalid: [
    // the server's start command migrates on every replica's start
    { code: table('start'), filename: '/srv/app/src/cli/index.ts', errors: [call(3, 35)] },
    // a key that names no command
    { code: table('migrate', 'title'), filename: '/srv/app/src/cli/index.ts', errors: [call(3, 38)] },
  ],
});
