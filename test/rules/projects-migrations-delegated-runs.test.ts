// Schema writes a start path or a migrate entrypoint hands to another module of the project
// (fixture test/rules/projects/migrations-delegated-runs): a folder of `.sql` files a set-up
// function sends at every start, a NestJS provider named for migrations asked of the container and
// run, a migrator function that locks itself (postgres-schema-migrations) and a transaction-level
// advisory lock held around a folder's files, both one module away from the entrypoint; and
// TypeORM's CLI configuration that no module imports.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const inApp = (file: string) => lintProjectFile('migrations-delegated-runs', file, ['no-in-app-migrations']);
const entrypoint = (file: string) => lintProjectFile('migrations-delegated-runs', file, ['migrate-entrypoint']);

describe('runs handed to another module', () => {
  test("a set-up function that sends every `.sql` file of a folder is reported at the start's call; one that reads `.json` files is not", async () => {
    expect(await inApp('src/main.ts')).toEqual(['replica-guard/no-in-app-migrations src/main.ts:6:9 schemaWriteCall']);
    expect(await inApp('src/store/setup.ts')).toEqual([]);
  });

  test('a provider named for migrations asked of the container and run at boot is reported; one whose `run()` moves files, or one named for something else, is not', async () => {
    expect(await inApp('src/nest-main.ts')).toEqual(['replica-guard/no-in-app-migrations src/nest-main.ts:10:9 schemaWriteCall']);
  });

  test("TypeORM's CLI configuration file that an app module imports is reported", async () => {
    expect(await inApp('src/db/ormconfig.ts')).toEqual(['replica-guard/no-in-app-migrations src/db/ormconfig.ts:6:3 schemaWriteOption']);
  });

  test('the same provider run by a standalone application context behind a main-module guard, which exits when done, is not reported', async () => {
    expect(await inApp('src/ledger-migrate.ts')).toEqual([]);
  });

  test("TypeORM's CLI configuration that no module imports is read by the CLI alone", async () => {
    expect(await inApp('orm/ormconfig.ts')).toEqual([]);
  });

  test('an entrypoint whose run goes to a migrator function that locks itself, or to a function holding a transaction lock around its files, needs no lock of its own', async () => {
    expect(await entrypoint('scripts/migrate.ts')).toEqual([]);
    expect(await entrypoint('scripts/migrate-ledger.ts')).toEqual([]);
    // the same transaction-level lock outside a transaction is released when its statement ends
    expect(await entrypoint('scripts/migrate-ledger-loose.ts')).toEqual([
      // on the file's first token: the run is a call of another module's function, named for none
      'replica-guard/migrate-entrypoint scripts/migrate-ledger-loose.ts:1:1 noLock',
    ]);
  });
});
