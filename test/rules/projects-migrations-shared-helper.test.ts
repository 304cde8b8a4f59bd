// no-in-app-migrations on a migrate helper shared by the server's start and the command-line
// tools: the server's calls are the start path and are reported; the migrate entrypoint's and the
// package bin's calls of the same helper are not. A helper named like a migrate entrypoint
// (`src/db/migrate.ts`) that the server imports is reported at the server's call (fixture
// test/rules/projects/migrations-shared-helper).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-shared-helper', file, ['no-in-app-migrations']);

describe('a migrate helper the server and the command-line tools share', () => {
  test('the server’s calls of both helpers are reported', async () => {
    expect(await findings('src/server.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/server.ts:6:7 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/server.ts:7:7 schemaWriteCall',
    ]);
  });

  test('the helper’s migrator call is reported where it stands: a service module calls it', async () => {
    expect(await findings('src/db/schema.ts')).toEqual(['replica-guard/no-in-app-migrations src/db/schema.ts:7:9 schemaWriteCall']);
  });

  test('the migrate entrypoint and the package’s bin calling the same helpers are not reported', async () => {
    expect(await findings('src/cli/db.ts')).toEqual([]);
    expect(await findings('src/cli.ts')).toEqual([]);
  });
});
