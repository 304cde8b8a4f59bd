// no-in-app-migrations on a migration step given what one request names, in a helper the request
// handlers call (fixture test/rules/projects/migrations-request-steps): callers in other
// modules are read too, test code left out; one caller on the start path keeps the report.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('a data step in a helper only request handlers call', () => {
  test('handlers here and in another module call it, and a test does: not reported', async () => {
    expect(await lintProjectFile('migrations-request-steps', 'src/controllers/imports.ts', ['no-in-app-migrations'])).toEqual([]);
  });

  test('the start path of another module calls it too: reported', async () => {
    expect(await lintProjectFile('migrations-request-steps', 'src/controllers/demo.ts', ['no-in-app-migrations'])).toEqual([
      'replica-guard/no-in-app-migrations src/controllers/demo.ts:7:10 schemaWriteCall',
    ]);
  });
});
