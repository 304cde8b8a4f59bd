// no-in-app-migrations on a package's own commands: the command folders (`bin`, `cli`, `commands`)
// of a package that declares a `bin` (a framework's `migrate` command), and nest-commander commands
// (fixture test/rules/projects/migrations-command-folders).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-command-folders', file, ['no-in-app-migrations']);

describe('commands of a package that declares a bin', () => {
  test('a command in a command folder is an operator’s tool, as is a wrapper only that command calls', async () => {
    expect(await findings('packages/framework/src/commands/db/up.ts')).toEqual([]);
    expect(await findings('packages/framework/src/bin/index.ts')).toEqual([]);
    expect(await findings('packages/framework/src/server/schema.ts')).toEqual([]);
  });

  test('the same package’s server start, and a command that starts the server itself, stay reported', async () => {
    expect(await findings('packages/framework/src/server/boot.ts')).toEqual([
      'replica-guard/no-in-app-migrations packages/framework/src/server/boot.ts:5:9 schemaWriteCall',
    ]);
    expect(await findings('packages/framework/src/commands/start.ts')).toEqual([
      'replica-guard/no-in-app-migrations packages/framework/src/commands/start.ts:6:9 schemaWriteCall',
    ]);
  });
});

describe('a service without a bin', () => {
  test('a commands folder alone says nothing of who runs it', async () => {
    expect(await findings('packages/shop/src/commands/warm.ts')).toEqual([
      'replica-guard/no-in-app-migrations packages/shop/src/commands/warm.ts:5:9 schemaWriteCall',
    ]);
  });

  test('a nest-commander command is an operator’s tool', async () => {
    expect(await findings('packages/shop/src/console/migrate-latest.command.ts')).toEqual([]);
  });
});
