// no-in-app-migrations and migrate-entrypoint across the files of a project: a set-up function in
// another module that runs the migrator two calls deep, TypeORM options imported from the module
// that builds them, and the file a package.json `db:migrate` script runs (the entrypoint: quiet
// for no-in-app-migrations, checked by migrate-entrypoint). Linted through ESLint's Node API with
// the plugin built from source.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-in-app-migrations', 'migrate-entrypoint']);

describe('migrations across files', () => {
  test('the app calls a set-up function that migrates two calls away, and builds a DataSource from imported options', async () => {
    expect(await findings('migrations-wrappers', 'src/main.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/main.ts:7:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/main.ts:8:33 schemaWriteOption',
    ]);
  });

  test('the module that defines the migrator call is reported where the call is', async () => {
    expect(await findings('migrations-wrappers', 'src/db/knex.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/knex.ts:6:9 schemaWriteCall',
    ]);
  });

  test('the file the db:migrate script runs is the migrate entrypoint', async () => {
    expect(await findings('migrations-wrappers', 'src/commands/apply-schema.ts')).toEqual([
      'replica-guard/migrate-entrypoint src/commands/apply-schema.ts:1:1 noLock',
    ]);
  });

  test('an internal command-line package (private, yargs, no start script) is an operator tool: its migrator call is not reported', async () => {
    expect(await findings('migrations-operator-cli', 'packages/admin/src/upgrade.ts')).toEqual([]);
  });

  test('a package that starts a server is not a command-line package, whatever it depends on', async () => {
    expect(await findings('migrations-operator-cli', 'packages/api/src/boot.ts')).toEqual([
      'replica-guard/no-in-app-migrations packages/api/src/boot.ts:7:9 schemaWriteCall',
    ]);
  });

  test('a start file that also imports commander is the server', async () => {
    expect(await findings('migrations-operator-cli', 'packages/api/src/server.ts')).toEqual([
      'replica-guard/no-in-app-migrations packages/api/src/server.ts:9:7 schemaWriteCall',
    ]);
  });

  test('a name that holds "migrate" is judged by the body of the function it calls in another module', async () => {
    expect(await findings('migrations-operator-cli', 'packages/api/src/start.ts')).toEqual([
      'replica-guard/no-in-app-migrations packages/api/src/start.ts:5:9 schemaWriteCall',
    ]);
  });

  test('a client built in another module on an embedded database is migrated per host: only the shared one is reported', async () => {
    expect(await findings('migrations-embedded-elsewhere', 'src/boot.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/boot.ts:9:9 schemaWriteCall',
    ]);
    // Umzug handed a Sequelize on a SQLite file (`storageOptions: { sequelize }`, `params: [….getQueryInterface()]`), here and a call away
    expect(await findings('migrations-embedded-elsewhere', 'src/store/journal.ts')).toEqual([]);
    expect(await findings('migrations-embedded-elsewhere', 'src/store/ledger.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/store/ledger.ts:13:9 schemaWriteCall',
    ]);
    expect(await findings('migrations-embedded-elsewhere', 'src/start-stores.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/start-stores.ts:6:9 schemaWriteCall',
    ]);
  });

  test('a file a migrate script runs only as a step before the migrator command is judged by what it runs itself', async () => {
    expect(await findings('migrations-script-step', 'scripts/rename-entries.ts')).toEqual([]);
    expect(await findings('migrations-script-step', 'scripts/create-views.ts')).toEqual([
      'replica-guard/migrate-entrypoint scripts/create-views.ts:6:7 noLock',
    ]);
  });

  test('the tables module a schema tool reads (`--schema`) is not an entrypoint; the file the migrate script runs is', async () => {
    expect(await findings('migrations-schema-flag', 'src/store/tables.ts')).toEqual([]);
    expect(await findings('migrations-schema-flag', 'src/store/migrate.ts')).toEqual([
      'replica-guard/migrate-entrypoint src/store/migrate.ts:4:7 noLock',
    ]);
  });

  test('a set-up function in another module spawns Prisma (binary in a variable) to diff and apply the schema: reported at the call and at the apply', async () => {
    expect(await findings('migrations-spawned-cli', 'src/main.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/main.ts:5:50 schemaWriteCall',
    ]);
    expect(await findings('migrations-spawned-cli', 'src/db/schema-sync.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/schema-sync.ts:19:3 schemaWriteCommand',
    ]);
  });

  test('sync() writes schema only on a Sequelize instance: a glob listing and a project class with a sync method do not, here or a call away', async () => {
    expect(await findings('migrations-sequelize-receivers', 'src/main.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/main.ts:6:9 schemaWriteCall',
    ]);
    expect(await findings('migrations-sequelize-receivers', 'src/db/store.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/store.ts:18:11 schemaWriteCall',
    ]);
    expect(await findings('migrations-sequelize-receivers', 'src/db/catalog.ts')).toEqual([]);
  });
});

describe('migration wrappers only tools and tests call', () => {
  test('a wrapper called only by the admin CLI and the tests is on no start path, nor one the CLI shares with a server call reported where it is made; one no module calls is reported', async () => {
    expect(await findings('migrations-tool-wrappers', 'src/db/schema.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/schema.ts:22:9 schemaWriteCall',
    ]);
  });

  test('the server’s call of the wrapper is reported where it is made', async () => {
    expect(await findings('migrations-tool-wrappers', 'src/server.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/server.ts:4:7 schemaWriteCall',
    ]);
  });
});

describe('data sources only the TypeORM CLI reads', () => {
  test('options in the file a script hands to the CLI and no module imports are not reported; the same file imported by the app is', async () => {
    expect(await findings('migrations-cli-data-source', 'src/database/data-source.ts')).toEqual([]);
    expect(await findings('migrations-cli-data-source', 'src/database/app-source.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/database/app-source.ts:7:3 schemaWriteOption',
    ]);
    expect(await findings('migrations-cli-data-source', 'src/database/reporting-source.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/database/reporting-source.ts:4:99 schemaWriteOption',
    ]);
  });
});

describe('a migrate entrypoint that hands its run to another module', () => {
  test('a runner that holds an advisory lock, or a SlonikMigrator built in another module, needs no lock of its own', async () => {
    expect(await findings('migrations-entrypoint-delegated', 'src/migrate.ts')).toEqual([]);
    expect(await findings('migrations-entrypoint-delegated', 'scripts/migrate-up.ts')).toEqual([]);
  });

  test('a runner in another module that takes no lock leaves the entrypoint without one', async () => {
    expect(await findings('migrations-entrypoint-delegated', 'src/cmd/migrate.ts')).toEqual([
      'replica-guard/migrate-entrypoint src/cmd/migrate.ts:3:7 noLock',
    ]);
  });
});

describe('a file a migrate script runs that only writes files', () => {
  test('a generator of a types file from the migration files reaches no database: no lock asked', async () => {
    expect(await findings('migrations-types-generator', 'src/scripts/schema-ids.ts')).toEqual([]);
  });

  test('a script of the same package that runs a migrator without a lock is still reported', async () => {
    expect(await findings('migrations-types-generator', 'src/scripts/apply-schema.ts')).toEqual([
      'replica-guard/migrate-entrypoint src/scripts/apply-schema.ts:12:23 noLock',
    ]);
  });
});

describe('a Kysely Migrator subclass built in other modules', () => {
  test('every construction hands it a SQLite client built there: its own run is not reported', async () => {
    expect(await findings('migrations-kysely-subclass', 'src/db/migrator.ts')).toEqual([]);
    expect(await findings('migrations-kysely-subclass', 'src/db/local-store.ts')).toEqual([]);
    expect(await findings('migrations-kysely-subclass', 'src/db/inline.ts')).toEqual([]);
  });

  test('one construction hands it the shared PostgreSQL database: its run is reported', async () => {
    expect(await findings('migrations-kysely-subclass', 'src/db/tenant-migrator.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/tenant-migrator.ts:15:12 schemaWriteCall',
    ]);
  });
});

describe('package scripts that check the migrations rather than apply them', () => {
  test('the files `db:migrate:check` and `migrations:verify` run are CI checks, not the entrypoint every pod runs', async () => {
    expect(await findings('migrations-check-script', 'scripts/replay-schema.mjs')).toEqual([]);
    expect(await findings('migrations-check-script', 'scripts/schema-drift.ts')).toEqual([]);
  });

  test('the file the `migrate` script of the same package runs is still the entrypoint', async () => {
    expect(await findings('migrations-check-script', 'scripts/apply-schema.ts')).toEqual([
      'replica-guard/migrate-entrypoint scripts/apply-schema.ts:4:47 appUrl',
      // on the loop's step that applies each migration file
      'replica-guard/migrate-entrypoint scripts/apply-schema.ts:7:9 noLock',
    ]);
  });
});
