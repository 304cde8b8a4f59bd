// Migration runs whose file shows them to be an operator's, not a replica's start: the wrappers of
// a two-way migration API (an apply beside an undo) whose callers are out of view, the branch of a
// command-line sub-command (`process.argv[2] === 'apply'`), and a script whose chain connects,
// syncs and logs. Their look-alikes (one direction only, a wrapper the module calls itself, an
// option switch, a chain that goes on to start a bot) stay reported.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const COMMONJS = { sourceType: 'commonjs' } as never;
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const KNEX = ["import knex from 'knex';", "const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });"];
const TYPEORM = ["import { DataSource } from 'typeorm';", "const dataSource = new DataSource({ type: 'postgres' });"];

const SYNC_CHAIN = (step: string, tail: string) =>
  lines("const { sequelize } = require('./models');", '', 'sequelize', '  .authenticate()', step, tail);

ruleTester.run('no-in-app-migrations (operator tool APIs)', rule, {
  valid: [
    // a table of the migrator's verbs for a CLI: the run is wherever `migrate.latest()` is called
    {
      code: lines(
        ...KNEX,
        'export const migrate = {',
        '  latest: async () => { console.log(await db.migrate.latest()); },',
        '  rollback: async () => { console.log(await db.migrate.rollback()); },',
        '};',
      ),
      filename: 'src/postgres/knex.ts',
    },
    // exported wrappers of both directions
    {
      code: lines(
        ...KNEX,
        'export async function migrateLatest() { await db.migrate.latest(); }',
        'export async function migrateDown() { await db.migrate.down(); }',
      ),
      filename: 'src/db.ts',
    },
    // the apply wrapper is called only by another exported wrapper, itself called from outside
    {
      code: lines(
        ...TYPEORM,
        'export async function updateDb() { await runMigrations(dataSource); }',
        'export async function runMigrations(source: DataSource) { await source.runMigrations(); }',
        'export async function undoLastMigration(source: DataSource) { await source.undoLastMigration(); }',
      ),
      filename: 'src/lib/db-utils.ts',
    },
    // the branch of a sub-command typed on the command line
    {
      code: lines(
        ...TYPEORM,
        'const main = async () => {',
        '  await dataSource.initialize();',
        "  if (process.argv[2] === 'apply') await dataSource.runMigrations();",
        "  if (process.argv[2] === 'revert') await dataSource.undoLastMigration();",
        '};',
        'main();',
      ),
      filename: 'db/run.ts',
    },
    {
      code: lines(
        ...KNEX,
        'const [, , command] = process.argv;',
        'switch (command) {',
        "  case 'up':",
        '    await db.migrate.latest();',
        '    break;',
        '}',
      ),
      filename: 'src/tools/db.ts',
    },
    // a script that connects, syncs and reports
    {
      code: SYNC_CHAIN(
        '  .then(() => {\n    return sequelize.sync({ alter: true });\n  })',
        "  .then(() => console.log('Synced'))\n  .catch((err) => {\n    return console.log(err);\n  });",
      ),
      filename: 'sequelize/index.js',
      languageOptions: COMMONJS,
    },
  ],
  invalid: [
    // one direction only: it may be the server's start hook
    {
      code: lines(...KNEX, 'export async function migrateLatest() { await db.migrate.latest(); }'),
      filename: 'src/db.ts',
      errors: [call(3, 47)],
    },
    // both directions, but the module runs the apply itself at its start: reported in the wrapper
    {
      code: lines(
        ...KNEX,
        'export async function migrateLatest() { await db.migrate.latest(); }',
        'export async function migrateDown() { await db.migrate.down(); }',
        'await migrateLatest();',
      ),
      filename: 'src/db.ts',
      errors: [call(3, 47)],
    },
    // an option switch is not a sub-command: a deploy may pass it to every pod
    {
      code: lines(...TYPEORM, "if (process.argv.includes('--migrate')) await dataSource.runMigrations();"),
      filename: 'src/main.ts',
      errors: [call(3, 47)],
    },
    // the branch taken when no sub-command is typed
    {
      code: lines(...TYPEORM, "if (process.argv[2] === 'seed') await seed();", 'else await dataSource.runMigrations();'),
      filename: 'src/main.ts',
      errors: [call(4, 12)],
    },
    // a chain that goes on to start something after the sync
    {
      code: SYNC_CHAIN('  .then(() => sequelize.sync({ alter: true }))', '  .then(() => bot.login(process.env.TOKEN));'),
      filename: 'src/index.js',
      languageOptions: COMMONJS,
      errors: [call(5, 15)],
    },
  ],
});

// Calls in the decorator of an exported class (`@Module({…}) export class AppModule {}`): the
// decorator comes before `export`, outside the class's range, and is still searched.
const NEST_MODULE = (factory: string) =>
  lines(
    "import { Module } from '@nestjs/common';",
    "import { TypeOrmModule } from '@nestjs/typeorm';",
    "import { DataSource } from 'typeorm';",
    '@Module({',
    '  imports: [',
    '    TypeOrmModule.forRootAsync({',
    "      useFactory: () => ({ type: 'postgres', synchronize: false }),",
    factory,
    '    }),',
    '  ],',
    '})',
    'export class AppModule {}',
  );

ruleTester.run('no-in-app-migrations (decorated modules)', rule, {
  valid: [
    {
      code: NEST_MODULE('      dataSourceFactory: async (options) => new DataSource(options).initialize(),'),
      filename: 'src/app.module.ts',
    },
  ],
  invalid: [
    {
      code: NEST_MODULE(
        lines(
          '      dataSourceFactory: async (options) => {',
          '        const dataSource = await new DataSource(options).initialize();',
          '        await dataSource.runMigrations();',
          '        return dataSource;',
          '      },',
        ),
      ),
      filename: 'src/app.module.ts',
      errors: [call(10, 15)],
    },
  ],
});
