// no-in-app-migrations on a module of a command folder named for the migrate command, in a
// package that declares no `bin` (fixture test/rules/projects/migrations-migrate-command-modules).
import { expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-migrate-command-modules', file, ['no-in-app-migrations']);

test('a command folder’s module named for the migrate command is the command an operator types', async () => {
  expect(await findings('lib/commands/migrate-database.js')).toEqual([]);
});

test('another command of the folder, and the same module outside a command folder, stay reported', async () => {
  expect(await findings('lib/commands/warm-cache.js')).toEqual([
    'replica-guard/no-in-app-migrations lib/commands/warm-cache.js:6:11 schemaWriteCall',
  ]);
  expect(await findings('lib/database/migrate-database.js')).toEqual([
    'replica-guard/no-in-app-migrations lib/database/migrate-database.js:6:11 schemaWriteCall',
  ]);
});
