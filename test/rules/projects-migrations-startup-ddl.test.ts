// no-in-app-migrations on hand-written start-up DDL: project functions named for migrations that
// send `ALTER TABLE` / `CREATE INDEX` / `CREATE TABLE` themselves, called as the app starts (fixture test/rules/projects/migrations-startup-ddl).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-startup-ddl', file, ['no-in-app-migrations']);

describe('start-up DDL sent by project functions', () => {
  test('calls of functions that send schema DDL to the shared database are reported, under a lock or not; data moves, per-host files and DDL text written to a file are not', async () => {
    expect(await findings('src/server.ts')).toEqual([
      // Drizzle `db.execute(sql`ALTER TABLE …`)` in another module.
      'replica-guard/no-in-app-migrations src/server.ts:32:9 schemaWriteCall',
      // `pool.query(`CREATE INDEX IF NOT EXISTS …`)` in a helper one call further down.
      'replica-guard/no-in-app-migrations src/server.ts:33:9 schemaWriteCall',
      // `client.query(LABEL_TABLE)`, the statement held in a constant.
      'replica-guard/no-in-app-migrations src/server.ts:34:9 schemaWriteCall',
      // A function of this file: its DDL is reported at its call.
      'replica-guard/no-in-app-migrations src/server.ts:35:9 schemaWriteCall',
      // DDL under a transaction-level advisory lock: the replicas wait for each other, and each runs it.
      'replica-guard/no-in-app-migrations src/server.ts:38:9 schemaWriteCall',
      // Named for the lock it holds and for migrating: a locked run at every start.
      'replica-guard/no-in-app-migrations src/server.ts:42:9 schemaWriteCall',
      // Not `createDbView(…)`, named for a view, not a migration, though it sends DDL.
    ]);
  });

  test('the modules that hold the DDL report nothing themselves', async () => {
    expect(await findings('src/startup/session-column.ts')).toEqual([]);
    expect(await findings('src/startup/indexes.ts')).toEqual([]);
    expect(await findings('src/startup/audit.ts')).toEqual([]);
  });

  test('DDL after a lock step of the same function is reported like the same call with no lock taken: every start runs it', async () => {
    expect(await findings('src/history.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/history.ts:16:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/history.ts:22:9 schemaWriteCall',
    ]);
  });

  test('DDL in a callback handed to a function that holds a lock is reported like the next call, outside it', async () => {
    expect(await findings('src/worker.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/worker.ts:8:11 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/worker.ts:10:9 schemaWriteCall',
    ]);
  });

  test('an upgrade job under its own lock, run as the app starts, is reported at the start path’s calls; its migrator call, in a helper the operator’s script shares, is not', async () => {
    expect(await findings('src/upgrade-on-start.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/upgrade-on-start.ts:5:7 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/upgrade-on-start.ts:6:7 schemaWriteCall',
    ]);
    expect(await findings('src/jobs/upgrade.ts')).toEqual([]);
  });

  test('an operator’s one-shot script and test set-up calling the same functions are not reported', async () => {
    expect(await findings('scripts/upgrade.ts')).toEqual([]);
    expect(await findings('scripts/repair-schema.ts')).toEqual([]);
    expect(await findings('test/setup.ts')).toEqual([]);
  });
});
