import { ruleTester, jsRuleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// Schema writes at boot through APIs other than a migrator's run: Mongoose's `syncIndexes()`
// (drops the indexes a schema no longer declares, builds the new ones, on the shared collections),
// db-migrate's programmatic `getInstance(…).up()`; TypeORM's CLI configuration (`ormconfig.ts`)
// with no package in view; a set-up script whose one run exits in every branch.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });

ruleTester.run('no-in-app-migrations (boot-time index and migrator calls)', rule, {
  valid: [
    // `syncIndexes` of something that is not Mongoose's (a search index client)
    lines("import { searchClient } from './search';", 'await searchClient.syncIndexes();'),
    // Mongoose's index builds that only create: no index another version still reads is dropped
    lines("import mongoose from 'mongoose';", "import { Invoice } from './models/invoice';", 'await Invoice.createIndexes();'),
    // `getInstance().up()` of a module that is not db-migrate
    lines("import registry from './registry';", 'await registry.getInstance().up();'),
    // db-migrate's instance asked to create a migration file, not to apply
    lines("import DBMigrate from 'db-migrate';", "await DBMigrate.getInstance(true).create('add-notes');"),
    // a DataSource in TypeORM's CLI configuration, linted with no package in view: only the CLI loads it
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        "export const tools = new DataSource({ type: 'postgres', migrationsRun: true });",
      ),
      filename: '/nowhere-m6/tools/ormconfig.ts',
    },
  ],
  invalid: [
    {
      code: lines(
        "import mongoose from 'mongoose';",
        'await mongoose.connect(process.env.MONGO_URL!);',
        'await Promise.all(Object.values(mongoose.models).map((m) => m.syncIndexes()));',
      ),
      errors: [call(3, 61)],
    },
    {
      code: lines(
        "import mongoose from 'mongoose';",
        "import { Invoice } from './models/invoice';",
        'export async function connectStore() {',
        '  await mongoose.connect(process.env.MONGO_URL!);',
        '  await Invoice.syncIndexes();',
        '}',
      ),
      errors: [call(5, 9)],
    },
    {
      code: lines("import mongoose from 'mongoose';", 'for (const model of Object.values(mongoose.models)) await model.syncIndexes();'),
      errors: [call(2, 59)],
    },
    {
      code: lines("import DBMigrate from 'db-migrate';", 'await DBMigrate.getInstance(true, { env: "prod" }).up();'),
      errors: [call(2, 7)],
    },
    // the same options in a file named otherwise, or in `ormconfig.ts` of TypeORM 0.2 (`createConnection()` loads it)
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        "export const tools = new DataSource({ type: 'postgres', migrationsRun: true });",
      ),
      filename: '/nowhere-m6/tools/data-source.ts',
      errors: [option(2, 57)],
    },
    {
      code: lines("export default { type: 'postgres', synchronize: true } satisfies import('typeorm').DataSourceOptions;"),
      filename: '/nowhere-m6/tools/ormconfig.ts',
      errors: [option(1, 36)],
    },
  ],
});

jsRuleTester.run('no-in-app-migrations (boot-time calls, JavaScript)', rule, {
  valid: [],
  invalid: [
    {
      // an autoloaded plugin: every server start runs it
      code: lines(
        "const plugin = require('fastify-plugin');",
        "const dbm = require('db-migrate');",
        'module.exports = plugin(async (server) => {',
        '  const runner = dbm.getInstance(true);',
        '  await runner.up();',
        '});',
      ),
      errors: [call(5, 9)],
    },
  ],
});
