// no-unguarded-schedule across files for work named as a drop of idle things (`closeStale`), a
// name that says "this process's own idle connections": the one imported from a module whose body
// updates rows of a shared table is reported; the one closing this process's own sockets stays quiet.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('no-unguarded-schedule: an idle-drop name judged by its body in another module', () => {
  test('closeStale updating tickets is reported; closeStale of own sockets is quiet', async () => {
    expect(await lintProjectFile('schedule-idle-drop-import', 'src/main.ts', ['no-unguarded-schedule'])).toEqual([
      'replica-guard/no-unguarded-schedule src/main.ts:7:13 unguardedSchedule',
    ]);
  });
});
