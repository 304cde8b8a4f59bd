// migrate-entrypoint finds the entrypoint by its common names (and a package.json migrate
// script) unless the `migrateEntrypoints` setting says where it is.
import { ruleTester } from '../rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const UNLOCKED = lines("import { migrateToLatest } from './db/runner';", 'await migrateToLatest();');

ruleTester.run('migrate-entrypoint: common names', rule, {
  valid: [
    // the setting wins: src/migrate.ts is not the entrypoint when it names another
    { code: UNLOCKED, filename: '/srv/app/src/migrate.ts', settings: { 'replica-guard': { migrateEntrypoints: ['**/tools/up.ts'] } } },
    // not a migrate name
    { code: UNLOCKED, filename: '/srv/app/src/server.ts' },
    { code: UNLOCKED, filename: '/srv/app/src/scripts/check-migrations.ts' },
    // under scripts/, only a file named migrate… is the entrypoint
    { code: UNLOCKED, filename: '/srv/app/scripts/migrate/seed-orders.ts' },
    { code: UNLOCKED, filename: '/srv/app/scripts/migrate/down.js' },
    // the capitalised name is the migrate command's alone
    { code: UNLOCKED, filename: '/srv/app/App/Migrator.ts' },
  ],
  invalid: [
    ...[
      '/srv/app/src/migrate.ts',
      '/srv/app/scripts/migrate.ts',
      // one migrate script per service of a monorepo, in a folder of its own
      '/srv/app/scripts/migrate/migrate-orders-service.ts',
      '/srv/app/scripts/db/migrate-ledger.ts',
      '/srv/app/bin/migrate.js',
      '/srv/app/src/commands/db/migrate.ts',
      '/srv/app/src/run-migrations.ts',
      '/srv/app/src/apply-migrations.ts',
      '/srv/app/tools/apply_migrations.js',
      // named as a class is, in a project that names its files so
      '/srv/app/Service/Migrate.ts',
      // the run command of a scripts folder named for migrating
      '/srv/app/scripts/migrate/up.js',
      '/srv/app/scripts/migrateWarehouseDb/index.ts',
    ].map((filename) => ({ code: UNLOCKED, filename, errors: [{ messageId: 'noLock' as const, line: 2, column: 7 }] })),
    {
      code: UNLOCKED,
      filename: '/srv/app/tools/up.ts',
      settings: { 'replica-guard': { migrateEntrypoints: ['**/tools/up.ts'] } },
      errors: [{ messageId: 'noLock' as const, line: 2, column: 7 }],
    },
  ],
});
