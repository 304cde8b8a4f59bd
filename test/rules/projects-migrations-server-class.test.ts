// no-in-app-migrations on a server's start file that runs only when started (`if (require.main ===
// module) main()`) and starts the server through a class of the project (`AppServer.create(port)`),
// which listens elsewhere: it is the server, not an operator's script, and its call of a shared
// migrate helper is reported there — not in the helper, which the `db:migrate` command also calls,
// nor in the function the helper calls. Test support it loads under a test switch
// (`require('../test/seed').createInitialDb()`) is not a start path (fixture
// test/rules/projects/migrations-server-class).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-server-class', file, ['no-in-app-migrations']);

describe('a start file that starts the server through a project class', () => {
  test('its call of the shared helper is reported; the test seed it loads under a test switch is not', async () => {
    expect(await findings('src/main.ts')).toEqual(['replica-guard/no-in-app-migrations src/main.ts:9:11 schemaWriteCall']);
  });

  test('a script started by hand that starts no server is not reported', async () => {
    expect(await findings('src/reindex.ts')).toEqual([]);
  });

  test('the helper, and the function it calls, are not reported: the start call is', async () => {
    expect(await findings('src/db-utils.ts')).toEqual([]);
  });
});
