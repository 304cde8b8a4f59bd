import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A workspace package whose whole purpose is migrating (`packages/schema-migrator/src/main.ts`, the
// file its `start` runs): the migrate entrypoint by its place. `no-in-app-migrations` leaves its
// migrator calls alone; `migrate-entrypoint` asks it for the lock and the exit code. The same
// file as the entry of another package (`packages/ledger/src/main.ts`) is the service's start.
const lines = (...l: string[]) => l.join('\n');
const entrypointRule = migrateEntrypoint as unknown as Parameters<
  typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>
>[1];
const inAppRule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];

const MIGRATOR_PACKAGE = 'packages/schema-migrator/src/main.ts';
const SERVICE_PACKAGE = 'packages/ledger/src/main.ts';

const CLI = lines(
  "import { Umzug, SequelizeStorage } from 'umzug';",
  "import { Sequelize } from 'sequelize';",
  'const sequelize = new Sequelize(process.env.LEDGER_URL!);',
  'const umzug = new Umzug({',
  "  migrations: { glob: 'changes/*.js' },",
  '  context: sequelize.getQueryInterface(),',
  '  storage: new SequelizeStorage({ sequelize }),',
  '  logger: console,',
  '});',
  'export const apply = async () => {',
  '  await umzug.up();',
  '  await sequelize.close();',
  '};',
  'const verb = process.env.LEDGER_MIGRATE_VERB || process.argv[2];',
  "if (verb === 'apply') void apply();",
);

/** A MikroORM run started from the branch of a sub-command (`if (verb === 'apply') void apply()`): `tail` closes the file. */
const MIKRO = (...tail: string[]) =>
  lines(
    "import { MikroORM } from '@mikro-orm/core';",
    "import ledgerConfig from './ledger.config';",
    'export const apply = async () => {',
    '  const orm = await MikroORM.init({ ...ledgerConfig });',
    '  const changes = orm.getMigrator();',
    '  await changes.up();',
    '  await orm.close();',
    '};',
    ...tail,
  );

ruleTester.run('no-in-app-migrations (a package for migrating)', inAppRule, {
  valid: [
    { code: CLI, filename: MIGRATOR_PACKAGE },
    {
      code: MIKRO('const verb = process.argv[2] || process.env.LEDGER_MIGRATE_VERB;', "if (verb === 'apply') void apply();"),
      filename: MIGRATOR_PACKAGE,
    },
  ],
  invalid: [{ code: CLI, filename: SERVICE_PACKAGE, errors: [{ messageId: 'schemaWriteCall', line: 11, column: 9 }] }],
});

ruleTester.run('migrate-entrypoint (a package for migrating)', entrypointRule, {
  valid: [
    { code: CLI, filename: SERVICE_PACKAGE },
    // a module of the package that only declares (its top-level `if` runs nothing): the run is where it is called
    { code: MIKRO("if (!process.env.LEDGER_URL) throw new Error('LEDGER_URL is required');"), filename: MIGRATOR_PACKAGE },
  ],
  invalid: [
    { code: CLI, filename: MIGRATOR_PACKAGE, errors: [{ messageId: 'noLock', line: 11, column: 9 }] },
    // the run started only in a sub-command's branch is the run all the same
    {
      code: MIKRO(
        'const verb = process.env.LEDGER_MIGRATE_VERB || process.argv[2];',
        "if (verb === 'apply') void apply();",
        'else if (verb) { console.error(`unknown verb ${verb}`); process.exit(1); }',
      ),
      filename: MIGRATOR_PACKAGE,
      errors: [{ messageId: 'noLock', line: 6, column: 9 }],
    },
    {
      code: MIKRO('switch (process.argv[2]) {', "  case 'apply':", '    apply().catch(() => process.exit(1));', '    break;', '}'),
      filename: MIGRATOR_PACKAGE,
      errors: [{ messageId: 'noLock', line: 6, column: 9 }],
    },
  ],
});
