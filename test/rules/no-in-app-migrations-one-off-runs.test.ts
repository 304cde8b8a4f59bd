// Migration runs a file itself shows to be run once, by hand or by a deploy, not at a replica's
// start (a migrate command's module in a command folder: projects-migrations-migrate-command-modules):
// a function-as-a-service handler that never
// reads its event (the migration function a deploy invokes), a file that is nothing but its schema
// write and its logging (`node db.js`), and a script that builds the NestJS application to run the
// migrations and closes it. Their look-alikes that serve requests or start a server stay reported.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const COMMONJS = { sourceType: 'commonjs' } as never;
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const LAMBDA = (event: string, body: string) =>
  lines(
    "const { Umzug, SequelizeStorage } = require('umzug');",
    "const { sequelize } = require('./models');",
    'const umzug = new Umzug({ migrations: { glob: "migrations/*.js" }, storage: new SequelizeStorage({ sequelize }) });',
    `exports.handler = async function (${event}) {`,
    body,
    '  return { ok: true };',
    '};',
  );

const SYNC_SCRIPT = (tail: string) => lines("const models = require('./models');", '', 'models.sequelize.sync({ alter: true })', tail);

const NEST_SCRIPT = (tail: string) =>
  lines(
    "import { NestFactory } from '@nestjs/core';",
    "import { DataSource } from 'typeorm';",
    "import { AppModule } from './src/app.module';",
    'async function main() {',
    '  const app = await NestFactory.create(AppModule);',
    '  await app.get(DataSource).runMigrations();',
    tail,
    '}',
    'main();',
  );

ruleTester.run('no-in-app-migrations (runs the file shows are one-off)', rule, {
  valid: [
    // a deploy's migration function: the handler never reads its event
    { code: LAMBDA('event, context', '  await umzug.up();'), filename: 'lambdas/migrate/index.js', languageOptions: COMMONJS },
    {
      code: lines(
        "import { MigrationExecutor } from 'typeorm';",
        "import db from './datasource';",
        'export const handler = async (_event?: unknown) => {',
        '  await db.initialize();',
        '  await db.runMigrations();',
        "  return 'done';",
        '};',
      ),
      filename: 'apps/api/src/database/schema-task.ts',
    },
    // nothing but loads, the schema write and its logging, exporting nothing
    {
      code: lines("require('dotenv').config();", SYNC_SCRIPT('  .catch(console.error);')),
      filename: 'db.js',
      languageOptions: COMMONJS,
    },
    {
      code: SYNC_SCRIPT(lines("  .then(() => console.log('synced'))", '  .catch((error) => { console.error(error); process.exit(1); });')),
      filename: 'db.js',
      languageOptions: COMMONJS,
    },
    // the application built to run the migrations, then closed
    NEST_SCRIPT('  await app.close();'),
  ],
  invalid: [
    // a handler that reads its event serves requests: it migrates on each invocation
    {
      code: LAMBDA('event', lines('  await umzug.up();', '  console.log(event.path);')),
      filename: 'lambdas/api/index.js',
      languageOptions: COMMONJS,
      errors: [call(5, 9)],
    },
    // the same handler not exported under the platform's name
    {
      code: LAMBDA('event', '  await umzug.up();').replace('exports.handler', 'exports.warmUp'),
      filename: 'lambdas/api/index.js',
      languageOptions: COMMONJS,
      errors: [call(5, 9)],
    },
    // the sync's handler starts the server; or the file also exports the models
    {
      code: SYNC_SCRIPT("  .then(() => require('./app').start());"),
      filename: 'db.js',
      languageOptions: COMMONJS,
      errors: [call(3, 1)],
    },
    // a bare call with no handler of its own says nothing of who runs the file
    { code: SYNC_SCRIPT(';'), filename: 'db.js', languageOptions: COMMONJS, errors: [call(3, 1)] },
    {
      code: lines(SYNC_SCRIPT('  .catch(console.error);'), 'module.exports = models;'),
      filename: 'db.js',
      languageOptions: COMMONJS,
      errors: [call(3, 1)],
    },
    // the application built and then served
    { code: NEST_SCRIPT('  await app.listen(3000);'), errors: [call(6, 9)] },
  ],
});
