// Files that no replica runs as the server, told by the project's folder and file conventions:
// test code (test files, test folders, test-support folders and modules, a runner's global set-up)
// and files in a folder named for
// migrations, whatever its exact name. The same code in a server file is reported. Paths count
// only inside the project: a folder above it named `test` or `migrations` says nothing.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });

const MIGRATES = lines("import knex from 'knex';", 'const db = knex({ client: "pg" });', 'await db.migrate.latest();');
const SYNCHRONIZES = lines(
  "import { TypeOrmModule } from '@nestjs/typeorm';",
  "export const testDatabase = TypeOrmModule.forRoot({ type: 'postgres', synchronize: true });",
);

/** A migrations folder's runner: it declares the table of applied versions with one model's `sync()` when the app calls it. */
const FOLDER_RUNNER = lines(
  "const { DataTypes, Model } = require('sequelize');",
  'class AppliedStep extends Model {}',
  'async function prepare(host) {',
  '  AppliedStep.init({ step: DataTypes.STRING }, { sequelize: host.store.sequelize, modelName: "AppliedStep" });',
  '  await AppliedStep.sync();',
  '}',
  'module.exports = { prepare };',
);
const FOLDER_STEP = lines(
  "const { DataTypes, Model } = require('sequelize');",
  'class AppliedStep extends Model {}',
  'module.exports = {',
  '  async up(context) {',
  '    AppliedStep.init({ step: DataTypes.STRING }, { sequelize: context.sequelize });',
  '    await AppliedStep.sync();',
  '  },',
  '};',
);

ruleTester.run('no-in-app-migrations (file conventions)', rule, {
  valid: [
    // a test runner's global set-up migrates a throw-away database
    { code: MIGRATES, filename: 'test/global-setup.ts' },
    { code: MIGRATES, filename: 'packages/api/vitest.setup.ts' },
    { code: MIGRATES, filename: 'src/globalSetup.ts' },
    // test files and test folders
    { code: SYNCHRONIZES, filename: 'src/orders/orders.e2e-spec.ts' },
    { code: SYNCHRONIZES, filename: 'src/orders/orders.service.spec.ts' },
    { code: SYNCHRONIZES, filename: 'src/orders/__tests__/database.ts' },
    { code: MIGRATES, filename: 'packages/db/tests/helpers/database.ts' },
    // test support: a package's `testing/` helpers reset and migrate a throw-away database
    { code: MIGRATES, filename: 'packages/core/src/testing/postgres.ts' },
    { code: MIGRATES, filename: 'src/test-utils/db.ts' },
    { code: MIGRATES, filename: 'src/testHelpers/reset-database.ts' },
    { code: MIGRATES, filename: 'libs/shared/test_support/schema.ts' },
    { code: SYNCHRONIZES, filename: 'src/__fixtures__/module.ts' },
    { code: SYNCHRONIZES, filename: 'src/test-utils.ts' },
    { code: MIGRATES, filename: 'packages/api/src/testing.ts' },
    // a module's test support beside it, and folders of one kind of tests
    { code: MIGRATES, filename: 'apps/server/src/modules/app/database/database.test-utils.ts' },
    { code: MIGRATES, filename: 'src/orders/orders.test-helpers.ts' },
    { code: MIGRATES, filename: 'src/modules/tags/tagging.int.test-suites.ts' },
    { code: SYNCHRONIZES, filename: 'src/modules/tags/int-tests/module.ts' },
    { code: MIGRATES, filename: 'packages/api/integration-tests/setup-db.ts' },
    // migration files in folders named for migrations, not only `migrations/`
    { code: MIGRATES, filename: 'packages/db/code-migrations/0007-backfill.ts' },
    { code: MIGRATES, filename: 'src/dbMigrations/0002-users.ts' },
    { code: MIGRATES, filename: 'db/pg-migrations/index.ts' },
    // the index of a migrations folder that exports a step is a migration file
    { code: FOLDER_STEP, filename: 'server/store/migrations/index.js' },
    // the runner's code in a numbered migration file of the folder
    { code: FOLDER_RUNNER, filename: 'server/store/migrations/0004-ledger-marks.js' },
  ],
  invalid: [
    // the same code where the server runs it
    { code: MIGRATES, filename: 'src/main.ts', errors: [call(3, 7)] },
    // the index of a migrations folder that exports no step and starts nothing: the runner the app calls
    { code: FOLDER_RUNNER, filename: 'server/store/migrations/index.js', errors: [call(5, 9)] },
    { code: FOLDER_RUNNER, filename: 'server/store/db-migrations/index.ts', errors: [call(5, 9)] },
    { code: SYNCHRONIZES, filename: 'src/app.module.ts', errors: [option(2, 71)] },
    // names that only contain a convention's word are not one
    { code: MIGRATES, filename: 'src/testimonials/database.ts', errors: [call(3, 7)] },
    { code: MIGRATES, filename: 'src/contest.ts', errors: [call(3, 7)] },
    { code: SYNCHRONIZES, filename: 'src/latest-specials/module.ts', errors: [option(2, 71)] },
    { code: MIGRATES, filename: 'src/load-testing/database.ts', errors: [call(3, 7)] },
    { code: MIGRATES, filename: 'src/testing-ground/boot.ts', errors: [call(3, 7)] },
    { code: MIGRATES, filename: 'src/ab-testing.ts', errors: [call(3, 7)] },
    { code: MIGRATES, filename: 'src/utils/db.ts', errors: [call(3, 7)] },
    { code: MIGRATES, filename: 'src/database/database.utils.ts', errors: [call(3, 7)] },
    { code: MIGRATES, filename: 'src/contest.suites.ts', errors: [call(3, 7)] },
    { code: SYNCHRONIZES, filename: 'src/int-testimonials/module.ts', errors: [option(2, 71)] },
  ],
});
