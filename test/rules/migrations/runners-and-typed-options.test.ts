// no-in-app-migrations when the migrator is out of sight: the project's own runner called at
// boot (`migrateDb()`, `dbClient.migrate()`, `migrate(db)`, `this.migrate({ migrations })`,
// `migrations.up()`), TypeORM options typed or shaped as such and handed to a DataSource in
// another module; and the files that may migrate (entrypoints by their common names, commands
// that run once and exit), where nothing is reported.
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number, api: string) => ({ messageId: 'schemaWriteCall' as const, line, column, data: { api } });
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });

ruleTester.run('no-in-app-migrations: project runners and typed options', rule, {
  valid: [
    // `synchronize` beside `entities` is TypeORM's pair, but off here; `entities` alone (MikroORM) names no option
    lines(
      'export const ormConfig = {',
      '  type: process.env.DB_TYPE,',
      '  synchronize: false,',
      "  entities: ['dist/**/*.entity.js'],",
      '};',
    ),
    lines('export const mikroConfig = {', "  entities: ['dist/**/*.entity.js'],", '  debug: true,', '};'),
    // a question about migrations, from a module named for them
    lines("import { requiresMigration } from '../migrator.js';", 'if (await requiresMigration(config)) log("pending");'),
    // the bare verb without a database in view: a state or data migration
    lines("import { migrate } from './store/persist';", 'const next = migrate(state, 3);'),
    lines('export function upgrade(settings: Settings) {', '  return settingsMigrator.migrate(settings);', '}'),
    // a runner defined in this file is judged by its body (nothing here writes schema)
    lines('async function runMigrations(list: string[]) { for (const m of list) log(m); }', 'await runMigrations(pending);'),
    lines('class Importer {', '  async migrate() { await copyRows(); }', '  async start() { await this.migrate(); }', '}'),
    // replica-guard's own runner, in the entrypoint scaffold style
    lines("import { runMigrations } from 'replica-guard';", "await runMigrations({ lockKey: 'orders', migrate: () => up() });"),
    // typed options that do not synchronise
    lines(
      "import type { DataSourceOptions } from 'typeorm';",
      "export const options: DataSourceOptions = { type: 'postgres', synchronize: false };",
    ),
    // `synchronize` on something that is not TypeORM's options
    lines('export const sync = { synchronize: true, intervalMs: 5000 };'),
    // TypeORM's own key, switched off
    lines('export const appConfig = { dbConnectionOptions: { migrationsRun: false, ...sharedConnection } };'),
    // the migrate entrypoint by its common names, and a command that runs once and exits
    { code: lines("import { migrateDb } from '../db';", 'await migrateDb();'), filename: '/srv/app/src/migrate.ts' },
    { code: lines("import { migrateDb } from '../db';", 'await migrateDb();'), filename: '/srv/app/scripts/migrate-db.ts' },
    { code: lines("const { migrateDb } = require('../lib/db');", 'migrateDb();'), filename: '/srv/app/bin/migrate.js' },
    {
      code: lines("import { DatabaseClient } from '@acme/db';", 'await new DatabaseClient(url).migrate();'),
      filename: '/srv/app/src/commands/db/migrate.ts',
    },
    lines("import { migrateToLatest } from './db/runner';", 'await migrateToLatest();', 'process.exit(0);'),
    lines("import { migrateToLatest } from './db/runner';", 'migrateToLatest().then(() => process.exit(0));'),
    // a migration object's own up/down (what an Umzug `resolve` returns) is not a run
    lines(
      "import { Umzug } from 'umzug';",
      'const umzug = new Umzug({ migrations: { glob: "m/*.js", resolve: ({ name, path }) => {',
      '  const migration = require(path);',
      '  return { name, up: async () => migration.up(ctx), down: async () => migration.down(ctx) };',
      '} } });',
    ),
  ],
  invalid: [
    // no import, no type, the driver read from the environment: `synchronize` beside `entities` is TypeORM's options
    {
      code: lines(
        'export const ormConfig = {',
        '  type: process.env.DB_TYPE,',
        '  url: process.env.DATABASE_URL,',
        "  synchronize: process.env.ROLE === 'primary' ? true : false,",
        "  entities: ['dist/**/*.entity.js'],",
        '};',
      ),
      errors: [option(4, 3)],
    },
    // the project's runner, imported from a module named for the database
    {
      code: lines(
        "import { migrateDb } from '../db';",
        'export async function start(config: Config) {',
        '  await migrateDb(config);',
        '  listen();',
        '}',
      ),
      errors: [call(3, 9, '`migrateDb()`')],
    },
    // runMigrations(config).then(bootstrap) in an app entrypoint
    {
      code: lines("import { bootstrap, runMigrations } from '@shop/core';", 'runMigrations(config).then(() => bootstrap(config));'),
      errors: [call(2, 1, '`runMigrations()`')],
    },
    // a database client's migrate(), also through a class name
    {
      code: lines("import { SchedulerDb } from '@acme/scheduler';", 'const dbClient = new SchedulerDb(url);', 'await dbClient.migrate();'),
      errors: [call(3, 7, '`dbClient.migrate()`')],
    },
    {
      code: lines("import { DatabaseClient } from '@acme/scheduler';", 'await DatabaseClient.migrate(url);'),
      errors: [call(2, 7, '`DatabaseClient.migrate()`')],
    },
    // the bare verb with a database or migrations in view
    {
      code: lines(
        "import runMigrationFiles from './utils/migrate.js';",
        'if (env.MIGRATE_AT_START === "true") {',
        '  await runMigrationFiles(db);',
        '}',
      ),
      errors: [call(3, 9, '`runMigrationFiles()`')],
    },
    {
      code: lines("import migrate from './utils/migrate.js';", 'if (env.MIGRATE_AT_START === "true") {', '  await migrate(handle);', '}'),
      errors: [call(3, 9, '`migrate()`')],
    },
    {
      code: lines(
        'export async function connect(this: Adapter) {',
        '  if (isProd) await this.migrate({ migrations: this.prodMigrations });',
        '}',
      ),
      errors: [call(2, 21, '`this.migrate()`')],
    },
    // a migrator told by its name (Umzug built in another module)
    {
      code: lines(
        "import { migrations } from '@app/storage';",
        'const pending = await migrations.pending();',
        'if (pending.length) await migrations.up();',
      ),
      errors: [call(3, 27, '`migrations.up()`')],
    },
    // TypeORM options typed as such, built here, handed to a DataSource elsewhere
    {
      code: lines(
        "import type { DataSourceOptions } from 'typeorm';",
        'export const options: DataSourceOptions = {',
        "  type: 'postgres',",
        '  synchronize: true,',
        '};',
      ),
      errors: [option(4, 3)],
    },
    {
      code: lines(
        "import { DataSourceOptions } from 'typeorm';",
        'function dbConfig(): DataSourceOptions {',
        '  switch (process.env.DB) {',
        "    case 'pg': return { synchronize: !isProd, url: process.env.DATABASE_URL } as DataSourceOptions;",
        '    default: return { synchronize: true, database: ":memory:" } satisfies Partial<DataSourceOptions>;',
        '  }',
        '}',
      ),
      errors: [option(4, 25), option(5, 23)],
    },
    // an options object shaped as TypeORM's (a TypeORM driver beside `synchronize`) in a config module
    {
      code: lines('export const devConfig = {', "  dbConnectionOptions: { type: 'mysql', synchronize: true, logging: false },", '};'),
      errors: [option(2, 41)],
    },
    // a key only TypeORM's options have, with the driver coming in through a spread of shared config
    {
      code: lines(
        "import { sharedConnection } from '@acme/config';",
        'export const appConfig = {',
        '  dbConnectionOptions: {',
        "    migrationsTransactionMode: 'each',",
        "    migrationsRun: process.env.DB_SYNC === 'true' ? false : true,",
        '    ...sharedConnection,',
        '  },',
        '};',
      ),
      errors: [option(5, 5)],
    },
  ],
});
