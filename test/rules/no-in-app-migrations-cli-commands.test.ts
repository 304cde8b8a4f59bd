// Migrators' own CLI commands spawned from app code: `npx sequelize db:migrate`, `knex migrate:latest`,
// `typeorm migration:run`, through child_process or what `promisify` makes of `exec`. Every replica
// that starts runs the command at once, as it would run Prisma's `migrate deploy`. Commands that list,
// create or undo migrations, and other programs, are not schema writes.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const command = (line: number, column: number, spawned: string) => ({
  messageId: 'schemaWriteCommand' as const,
  line,
  column,
  data: { command: spawned },
});
const CHILD = "import { exec, execSync, spawnSync } from 'node:child_process';";
const UTIL = "import { promisify } from 'node:util';";

ruleTester.run('no-in-app-migrations (migrator CLI commands)', rule, {
  valid: [
    // Commands that list, create or undo migrations.
    lines(CHILD, "export const status = () => execSync('npx sequelize db:migrate:status');"),
    lines(CHILD, 'export const make = (name: string) => execSync(`npx knex migrate:make ${name}`);'),
    // A promisified `exec` running something else.
    lines(CHILD, UTIL, 'const run = promisify(exec);', "export async function build() { await run('npm run build'); }"),
    // A migrator's command in a string no process is given.
    lines(CHILD, "export const HINT = 'run npx sequelize db:migrate before starting';", 'execSync(`echo ${HINT}`);'),
    // `promisify` of something that spawns nothing.
    lines(
      UTIL,
      "import { readFile } from 'node:fs';",
      'const read = promisify(readFile);',
      "export const load = () => read('npx sequelize db:migrate');",
    ),
  ],
  invalid: [
    {
      code: lines(
        CHILD,
        UTIL,
        'const execAsync = promisify(exec);',
        'export async function waitForDatabase() {',
        "  if (process.env.NODE_ENV === 'production') {",
        "    const { stdout } = await execAsync('npm run copy-files && npx sequelize db:migrate');",
        '    console.log(stdout);',
        '  }',
        '}',
      ),
      errors: [command(6, 30, 'sequelize db:migrate')],
    },
    {
      code: lines(CHILD, "execSync('npx knex --knexfile ./knexfile.js migrate:latest', { stdio: 'inherit' });"),
      errors: [command(2, 1, 'knex --knexfile ./knexfile.js migrate:latest')],
    },
    {
      code: lines(CHILD, "export const boot = () => spawnSync('npx', ['typeorm', 'migration:run', '-d', 'dist/data-source.js']);"),
      errors: [command(2, 27, 'typeorm migration:run')],
    },
  ],
});
