// no-in-app-migrations on a migration run inside a closure an exported factory hands out
// (`return [db, async () => migrate(db, …)]`): the run is wherever a caller calls the closure it
// takes. Taken only by a module that passes it on to a migrate entrypoint, and by tests, it runs on
// no replica's start; taken and called by the server's start, it does.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-handed-out-closures', file, ['no-in-app-migrations']);

describe('closures a factory hands out', () => {
  test('a migrate closure only the migrate script (through a re-export) and tests call is not reported', async () => {
    expect(await findings('src/store/make-store.ts')).toEqual([]);
  });

  test('one the server takes and calls at its start is', async () => {
    expect(await findings('src/store/make-ledger.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/store/make-ledger.ts:10:13 schemaWriteCall',
    ]);
  });
});
