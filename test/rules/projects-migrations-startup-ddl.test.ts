// no-in-app-migrations on hand-written start-up DDL: project functions named for migrations that
// send `ALTER TABLE` / `CREATE INDEX` / `CREATE TABLE` themselves, called as the app starts (fixture test/rules/projects/migrations-startup-ddl).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-startup-ddl', file, ['no-in-app-migrations']);

describe('start-up DDL sent by project functions', () => {
  test('calls of functions that send schema DDL to the shared database are reported; data moves, per-host files, locked DDL and DDL text written to a file are not', async () => {
    expect(await findings('src/server.ts')).toEqual([
      // Drizzle `db.execute(sql`ALTER TABLE …`)` in another module.
      'replica-guard/no-in-app-migrations src/server.ts:32:9 schemaWriteCall',
      // `pool.query(`CREATE INDEX IF NOT EXISTS …`)` in a helper one call further down.
      'replica-guard/no-in-app-migrations src/server.ts:33:9 schemaWriteCall',
      // `client.query(LABEL_TABLE)`, the statement held in a constant.
      'replica-guard/no-in-app-migrations src/server.ts:34:9 schemaWriteCall',
      // A function of this file: its DDL is reported at its call.
      'replica-guard/no-in-app-migrations src/server.ts:35:9 schemaWriteCall',
      // Not `createDbView(…)` (named for a view, not a migration) nor `tryAcquireLockAndMigrate()`
      // (named for the lock it holds), though both send DDL.
    ]);
  });

  test('the modules that hold the DDL report nothing themselves', async () => {
    expect(await findings('src/startup/session-column.ts')).toEqual([]);
    expect(await findings('src/startup/indexes.ts')).toEqual([]);
    expect(await findings('src/startup/audit.ts')).toEqual([]);
  });

  test('DDL after a lock step of the same function is not reported; the same call with no lock taken is', async () => {
    expect(await findings('src/history.ts')).toEqual(['replica-guard/no-in-app-migrations src/history.ts:22:9 schemaWriteCall']);
  });

  test('DDL in a callback handed to a function that holds a lock is not reported; the next call, outside it, is', async () => {
    expect(await findings('src/worker.ts')).toEqual(['replica-guard/no-in-app-migrations src/worker.ts:10:9 schemaWriteCall']);
  });

  test('an operator’s one-shot script and test set-up calling the same functions are not reported', async () => {
    expect(await findings('scripts/repair-schema.ts')).toEqual([]);
    expect(await findings('test/setup.ts')).toEqual([]);
  });
});
