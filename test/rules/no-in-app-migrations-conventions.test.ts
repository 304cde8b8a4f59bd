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
  ],
  invalid: [
    // the same code where the server runs it
    { code: MIGRATES, filename: 'src/main.ts', errors: [call(3, 7)] },
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
