// Migration runs no catalogue names: an application's migration module asked to migrate in its
// boot, a project's wrapper named for the migrator library it runs, a loop that sends each
// statement of a migrations list to the database from a method the start hook calls, and a loop
// that loads each module of a migrations folder and runs it. And a handle named `sqlite` whose
// type is libSQL's client, which may be a server.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const WAREHOUSE = (send: string, hook = 'onModuleInit') =>
  lines(
    "import { createClient } from '@clickhouse/client';",
    "import { schemaSteps } from './warehouse.schema';",
    'export class Warehouse {',
    `  async ${hook}() {`,
    '    const client = createClient({ url: process.env.WAREHOUSE_URL });',
    '    await this.migrate(client);',
    '  }',
    '  private async migrate(client) {',
    '    const migrations = schemaSteps();',
    '    for (const sql of migrations) {',
    `      ${send}`,
    '    }',
    '  }',
    '}',
  );

const LOADER = (run: string) =>
  lines(
    "import { readdir } from 'node:fs/promises';",
    'export async function applyAll(db) {',
    "  const pendingMigrations = (await readdir(new URL('./migrations', import.meta.url))).sort();",
    '  for (const file of pendingMigrations) {',
    run,
    '  }',
    '}',
  );

ruleTester.run('no-in-app-migrations (hand-written runners)', rule, {
  valid: [
    // one migration of a runner's loop asked to migrate is not the application's migration module
    lines('export async function each(list, options) {', '  for (const migration of list) await migration.migrate(options);', '}'),
    // a wrapper named for a library's client, not its migrator
    lines("import { drizzleClient } from './db';", 'await drizzleClient();'),
    // the loop sends something else than the list's element
    WAREHOUSE("await client.command({ query: 'SELECT 1' });"),
    // a list of reports, not of migrations
    lines(
      'export class Reports {',
      '  async onModuleInit() { await this.migrate(this.client); }',
      '  private async migrate(client) {',
      '    for (const sql of this.reportQueries) await client.query(sql);',
      '  }',
      '}',
    ),
    // modules loaded from a folder of plugins, not of migrations
    lines(
      'export async function loadPlugins(names) {',
      '  for (const name of names) {',
      '    const migrationStep = (await import(`./plugins/${name}`)).default;',
      '    await migrationStep();',
      '  }',
      '}',
    ),
    // a libSQL handle's local file is still a file: the URL says so
    lines(
      "import { createClient } from '@libsql/client';",
      "import { drizzle } from 'drizzle-orm/libsql';",
      "import { migrate } from 'drizzle-orm/libsql/migrator';",
      "const sqlite = createClient({ url: 'file:local.db' });",
      "await migrate(drizzle(sqlite), { migrationsFolder: './drizzle' });",
    ),
    // named `sqlite` and typed with nothing else: a file on this host
    lines(
      "import { drizzle } from 'drizzle-orm/libsql';",
      "import { migrate } from 'drizzle-orm/libsql/migrator';",
      "import { container } from './container';",
      'const sqlite = container.resolve(DATABASE);',
      "await migrate(drizzle(sqlite), { migrationsFolder: './drizzle' });",
    ),
  ],
  invalid: [
    // a framework's migration module run in its boot sequence
    {
      code: lines(
        'export async function boot(self) {',
        '  await self.emit("modulesRegistered");',
        '  await self.apos.migration.migrate(self.argv);',
        '  await self.emit("ready");',
        '}',
      ),
      errors: [call(3, 9)],
    },
    // a wrapper named for the migrator library it runs
    {
      code: lines("import { drizzleMigrate } from './migrate';", 'export async function bootstrap() {', '  await drizzleMigrate();', '}'),
      errors: [call(3, 9)],
    },
    // each statement of the migrations list sent by a method the start hook calls
    { code: WAREHOUSE('await client.command({ query: sql });'), errors: [call(6, 11)] },
    { code: WAREHOUSE('await client.query(sql);', 'onApplicationBootstrap'), errors: [call(6, 11)] },
    // each module of the migrations folder loaded and run, its default export or a named one
    {
      code: LOADER(lines('    const migration = (await import(`./migrations/${file}`)).default;', '    await migration(db);')),
      errors: [call(6, 11)],
    },
    {
      code: LOADER(lines('    const { up: migrationUp } = await import(`./migrations/${file}`);', '    await migrationUp(db);')),
      errors: [call(6, 11)],
    },
    // a handle named `sqlite` but typed with libSQL's client, which may be a server
    {
      code: lines(
        "import type { Client } from '@libsql/client';",
        "import { drizzle } from 'drizzle-orm/libsql';",
        "import { migrate } from 'drizzle-orm/libsql/migrator';",
        "import { container } from './container';",
        'export async function dbMigrate() {',
        '  const sqlite = container.resolve<Client>(DATABASE);',
        "  await migrate(drizzle(sqlite), { migrationsFolder: './drizzle' });",
        '}',
      ),
      errors: [call(7, 9)],
    },
  ],
});
