// no-unguarded-schedule where the job's claim sits in a store or repository of another module:
// a row read `FOR UPDATE` by a store method the job calls inside its transaction (a Drizzle filter
// with the lock clause, SQL on a client that began), a conditional update whose affected rows a
// repository turns into the answer the job tests (two calls away), and a run row keyed by the job's
// name inserted in a `try` that answers false when the insert fails. A default row upserted where a
// read found none (get-or-create) before the claim writes nothing that repeats. Each is quiet; the
// twins — the read without the lock, the locking read outside a transaction, an update filtered by id
// only, an answer not tested, a row of fresh values, an upsert made at every call before the claim —
// are reported.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('schedule-claims-in-stores', file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule: claims made in stores and repositories of other modules', () => {
  test('a row locked for update by a store method called in the transaction is a claim; no lock, or no transaction, is reported', async () => {
    expect(await findings('src/tasks/ledger.tasks.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/tasks/ledger.tasks.ts:38:3 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/tasks/ledger.tasks.ts:47:3 unguardedSchedule',
    ]);
  });

  test('an answer of a conditional update or a keyed insert, tested before the send, is a claim; the twins are reported', async () => {
    expect(await findings('src/tasks/notice.tasks.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/tasks/notice.tasks.ts:22:3 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/tasks/notice.tasks.ts:27:3 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/tasks/notice.tasks.ts:39:3 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/tasks/notice.tasks.ts:46:3 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/tasks/notice.tasks.ts:52:3 unguardedSchedule',
    ]);
  });
});
