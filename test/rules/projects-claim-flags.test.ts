// require-atomic-claim across the files of a project (test/rules/projects/claim-flag-helper): a
// running flag checked on the row read, then set by a helper of another module (`await
// setSyncRunning(id, true)`, `await markImportRunning(id)`), is a claim that is not atomic; a
// helper that claims the turn with a checked conditional update, or one that writes another
// column, keeps the read quiet. Linted through ESLint's Node API, plugin from source.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('require-atomic-claim: running flags set one module away', () => {
  test('the flag set by a helper that writes it by id alone is reported at the helper call; a conditional claim or another column is not', async () => {
    expect(await lintProjectFile('claim-flag-helper', 'src/sync/accounts.ts', ['require-atomic-claim'])).toEqual([
      'replica-guard/require-atomic-claim src/sync/accounts.ts:9:9 checkedFlagClaim',
      'replica-guard/require-atomic-claim src/sync/accounts.ts:30:9 checkedFlagClaim',
    ]);
  });
});
