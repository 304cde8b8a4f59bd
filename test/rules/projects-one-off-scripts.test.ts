// Files run only by a package.json script that names an operator's one-off database chore
// (`db:truncate`, `db:reset`, `seed`, `backfill`): typed once by someone, not started by every
// replica. Their schema writes (no-in-app-migrations) and read-then-write (no-read-then-write) are
// not reported; the same files run by a script of another kind (`recount`, `stock:sync`) are.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('one-off-package-scripts', file, ['no-in-app-migrations', 'no-read-then-write']);

describe('files run only by one-off package.json scripts', () => {
  test('a reset run by db:truncate and db:reset is quiet; the same steps run by another script are reported', async () => {
    expect(await findings('src/db/wipe.ts')).toEqual([]);
    expect(await findings('src/db/recount.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/recount.ts:7:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/db/recount.ts:8:9 schemaWriteCall',
    ]);
  });

  test('a seed run by db:reset after the wipe is quiet; the same counter run by stock:sync is reported', async () => {
    expect(await findings('src/db/seed-demo.ts')).toEqual([]);
    expect(await findings('src/db/restock.ts')).toEqual(['replica-guard/no-read-then-write src/db/restock.ts:7:17 sequelize']);
  });
});
