// no-in-app-migrations on methods called on what a project factory returns (fixture
// test/rules/projects/migrations-factory-results): the factory's returned value, read in its own
// module, says whether the call writes the schema — a migrator or an object of tools.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-factory-results', file, ['no-in-app-migrations']);

describe('methods called on a project factory’s result', () => {
  test('a migrator or tools on the shared database are reported; on this host’s file, or tools that touch no database, they are not', async () => {
    expect(await findings('src/server.ts')).toEqual([
      // `migratorFor(warehouse)` returns a Kysely Migrator on the caller's database.
      'replica-guard/no-in-app-migrations src/server.ts:7:9 schemaWriteCall',
      // `stepsFor(orders)` returns an Umzug: `up()` runs it, whatever the variable is called.
      'replica-guard/no-in-app-migrations src/server.ts:9:9 schemaWriteCall',
      // `ledgerTools(orders).sync()` runs the tool's `sequelize.sync({ alter: true })`.
      'replica-guard/no-in-app-migrations src/server.ts:10:9 schemaWriteCall',
      // `tools.migrate()` runs the tool's Umzug.
      'replica-guard/no-in-app-migrations src/server.ts:12:9 schemaWriteCall',
      // Not: the price-cache migrator over this host's SQLite file (held in a const, or called
      // at once), the in-memory tool's `sync()`, the settings file's `migrate()`.
    ]);
  });

  test('a factory of the same file is read the same way', async () => {
    expect(await findings('src/worker.ts')).toEqual(['replica-guard/no-in-app-migrations src/worker.ts:19:9 schemaWriteCall']);
  });

  test('the factories themselves run nothing', async () => {
    expect(await findings('src/migrations/factories.ts')).toEqual([]);
  });
});

describe('a catalogue method on a receiver from a project module that imports the library (fixture test/rules/projects/migrations-borrowed-evidence)', () => {
  const inProject = (file: string) => lintProjectFile('migrations-borrowed-evidence', file, ['no-in-app-migrations']);

  test('`models.sequelize.sync()` in a file that requires the models module is reported; the same call on a module without Sequelize is not', async () => {
    expect(await inProject('app.js')).toEqual(['replica-guard/no-in-app-migrations app.js:9:1 schemaWriteCall']);
  });

  test('on a receiver that shows Sequelize (`db.sequelize`, a model class) from a module that cannot be read (a run-time alias, a missing file) it is reported; on one that does not (`db.cache`), not', async () => {
    expect(await inProject('boot.js')).toEqual([
      'replica-guard/no-in-app-migrations boot.js:13:1 schemaWriteCall',
      'replica-guard/no-in-app-migrations boot.js:15:1 schemaWriteCall',
      'replica-guard/no-in-app-migrations boot.js:16:1 schemaWriteCall',
    ]);
  });
});
