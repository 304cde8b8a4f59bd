// no-in-app-migrations on modules named like a migrate entrypoint (`migrate.ts`) that start
// nothing when loaded: a helper the server imports is judged as any module (its migrator call
// and a hand-written loop over migration files are reported); one no module imports is started
// from outside (a container's entrypoint) and stays the entrypoint it is named; one in a command
// folder is a command's. migrate-entrypoint agrees: the imported module is no entrypoint to lock, the
// one no module imports is (fixture test/rules/projects/migrations-helper-named-migrate).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-helper-named-migrate', file, ['no-in-app-migrations', 'migrate-entrypoint']);

describe('a module named migrate.ts that only exports its run', () => {
  test('imported by the server, its migrator call and its loop over migration files are reported', async () => {
    expect(await findings('src/migrate.ts')).toEqual(['replica-guard/no-in-app-migrations src/migrate.ts:4:9 schemaWriteCall']);
    expect(await findings('src/db/migrate.ts')).toEqual(['replica-guard/no-in-app-migrations src/db/migrate.ts:9:11 schemaWriteCall']);
  });

  test('imported by no module, or lying in a command folder, it is the migrate entrypoint', async () => {
    expect(await findings('src/jobs/migrate.ts')).toEqual([]);
    expect(await findings('src/cli/migrate.ts')).toEqual([]);
    expect(await findings('src/tasks/migrate.ts')).toEqual(['replica-guard/migrate-entrypoint src/tasks/migrate.ts:10:9 noLock']);
  });

  test('imported by the server, a module that builds a value at its top level is no entrypoint to lock: its run is reported', async () => {
    expect(await findings('src/lib/migrate.ts')).toEqual(['replica-guard/no-in-app-migrations src/lib/migrate.ts:10:9 schemaWriteCall']);
  });
});
