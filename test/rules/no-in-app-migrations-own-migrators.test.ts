// A project's own migrator and the commands around it, judged from the file alone:
// - a class that extends a migrator defines its verbs by calling its base (`async up() { return
//   this.migrateUp(); }`): a definition, run where `migrator.up()` is called; any other method of
//   it, or a class that extends something else, runs the base's run where it stands;
// - a command module typed against commander's typings (`@commander-js/extra-typings`) is an
//   operator's command, like one importing `commander`;
// - a function a command table names only under a database command's key (`{ 'db:sync': dbSync }`)
//   runs when that command is asked for; called anywhere else, or under another key, it is reported;
// - a script named for the test tooling (`prepareTestDb.ts`) that starts its own run is the test
//   set-up's, like a seed script; the same script under another name is reported;
// - a hand-written migrator: each file of a migrations folder read and sent to the database in a loop.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A project's migrator class extending `base`, with `method` running the base's migrations. */
const migratorClass = (base: string, method: string) =>
  lines(
    "import { Kysely, FileMigrationProvider } from 'kysely';",
    "import { Migrator } from './base-migrator.js';",
    `export class ReportsMigrator extends ${base} {`,
    `  async ${method}(target?: string) {`,
    "    if (target) return await this.runMigration(target, 'Up');",
    '    return await this.migrateUp();',
    '  }',
    '}',
  );

/** A command registering `apply`, typed against `cliImport`'s `Command`. */
const applyCommand = (cliImport: string) =>
  lines(
    cliImport,
    "import { Kysely, Migrator } from 'kysely';",
    'export function registerApply(program: Command, db: Kysely<unknown>, provider: never) {',
    "  program.command('apply').action(async () => {",
    '    const migrator = new Migrator({ db, provider });',
    '    await migrator.migrateToLatest();',
    '  });',
    '}',
  );

/** A task module whose `dbSync` is named in `table`, and `extra` after it. */
const taskTable = (table: string, extra = '') =>
  lines(
    "import { Sequelize } from 'sequelize';",
    'const sequelize = new Sequelize(process.env.DATABASE_URL);',
    'const dbSync = () => sequelize.sync({ force: true });',
    `export const tasks = ${table};`,
    extra,
  );

/** A script preparing a database, started at its top level. */
const PREPARE = lines(
  "import dataSource from '../datasource';",
  'const prepare = async () => {',
  '  const connection = await dataSource.initialize();',
  '  await connection.dropDatabase();',
  '  await connection.runMigrations();',
  '};',
  'prepare();',
);

/** A function that sends each file of `collection` to the database as `send`. */
const fileRunner = (collection: string, send: string) =>
  lines(
    "import fs from 'fs';",
    "import path from 'path';",
    'export async function applySchema(pool: { connect(): Promise<any> }) {',
    "  const migrationsDir = path.join(__dirname, 'migrations');",
    `  const ${collection} = fs.readdirSync(migrationsDir).sort();`,
    '  const client = await pool.connect();',
    `  for (const file of ${collection}) {`,
    "    const text = fs.readFileSync(path.join(migrationsDir, file), 'utf8');",
    `    await ${send};`,
    '  }',
    '}',
  );

ruleTester.run('no-in-app-migrations (own migrators)', rule, {
  valid: [
    // a migrator class's own verbs, named up / down / migrateToLatestOrThrow
    { code: migratorClass('Migrator', 'up'), filename: 'src/data/migrator.ts' },
    { code: migratorClass('Migrator', 'down'), filename: 'src/data/migrator.ts' },
    { code: migratorClass('kysely.Migrator', 'migrateToLatestOrThrow'), filename: 'src/data/migrator.ts' },
    // a command typed against commander's typings
    { code: applyCommand("import type { Command } from '@commander-js/extra-typings';"), filename: 'src/actions/apply.ts' },
    // a handler a command table names under a database command's key
    { code: taskTable("{ 'db:sync': dbSync, 'db:seed:all': () => undefined }"), filename: 'src/aws/tasks.ts' },
    // the test tooling's database preparation
    { code: PREPARE, filename: 'server/scripts/prepareTestDb.ts' },
    { code: PREPARE, filename: 'scripts/setup-e2e-db.ts' },
    // the same loop on a per-host SQLite file
    {
      code: fileRunner('migrationFiles', 'client.query(text)').replace(
        "import fs from 'fs';",
        "import fs from 'fs';\nimport Database from 'better-sqlite3';",
      ),
      filename: 'src/db/setup.ts',
    },
    // a loop over migration files that only records them
    { code: fileRunner('migrationFiles', "client.query('INSERT INTO applied (name) VALUES ($1)', [file])"), filename: 'src/db/setup.ts' },
  ],
  invalid: [
    // a method of the migrator class named for something else runs the base's migrations there
    { code: migratorClass('Migrator', 'connect'), filename: 'src/data/migrator.ts', errors: [call(5, 30), call(6, 18)] },
    // a class that extends no migrator
    { code: migratorClass('BaseStore', 'up'), filename: 'src/data/migrator.ts', errors: [call(5, 30), call(6, 18)] },
    // no command-line framework in view
    { code: applyCommand("import type { Command } from './program';"), filename: 'src/actions/apply.ts', errors: [call(6, 11)] },
    // the same handler under a plain key, or also called where it stands
    { code: taskTable('{ sync: dbSync }'), filename: 'src/aws/tasks.ts', errors: [call(3, 22)] },
    { code: taskTable("{ 'db:sync': dbSync }", 'dbSync();'), filename: 'src/aws/tasks.ts', errors: [call(3, 22)] },
    // the same preparation under a name that is not the test tooling's
    { code: PREPARE, filename: 'server/scripts/prepareDb.ts', errors: [call(5, 9)] },
    // a hand-written migrator sends each migration file, read here or through a `const`
    { code: fileRunner('migrationFiles', 'client.query(text)'), filename: 'src/db/setup.ts', errors: [call(9, 11)] },
    {
      code: fileRunner('migrationFiles', 'client.query(fs.readFileSync(path.join(migrationsDir, file)).toString())'),
      filename: 'src/db/setup.ts',
      errors: [call(9, 11)],
    },
  ],
});
