// no-in-app-migrations on a migrate helper shared by the server's start and the command-line
// tools: the server's calls are the start path and are reported; the helper itself, which the
// operator's command needs, is not, when every start caller calls it by a name the rule follows
// across files (the finding is made at those calls). A helper the server calls by a name the rule
// does not follow keeps its finding. The migrate entrypoint's and the package bin's calls are not
// reported (fixture test/rules/projects/migrations-shared-helper).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-shared-helper', file, ['no-in-app-migrations']);

describe('a migrate helper the server and the command-line tools share', () => {
  test('the server’s calls of both helpers are reported', async () => {
    expect(await findings('src/server.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/server.ts:7:7 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/server.ts:8:7 schemaWriteCall',
    ]);
  });

  test('the helpers’ migrator calls are not reported: the server’s calls of them are', async () => {
    expect(await findings('src/db/schema.ts')).toEqual([]);
    expect(await findings('src/db/migrate.ts')).toEqual([]);
  });

  test('a shared helper the server calls by a name the rule does not follow is reported where it migrates', async () => {
    expect(await findings('src/db/warmup.ts')).toEqual(['replica-guard/no-in-app-migrations src/db/warmup.ts:5:9 schemaWriteCall']);
  });

  test('the migrate entrypoint and the package’s bin calling the same helpers are not reported', async () => {
    expect(await findings('src/cli/db.ts')).toEqual([]);
    expect(await findings('src/cli.ts')).toEqual([]);
  });
});
