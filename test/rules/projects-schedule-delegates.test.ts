// no-unguarded-schedule where the guard, or what stands for one, sits in another module: a lock
// helper of the project whose lock lives in this process (a Set of held keys, a promise chain, an
// async-mutex per key) guards nothing across replicas, while one asking Redis or PostgreSQL does.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule: guards reached through other modules', () => {
  test('a job run through an imported lock helper that locks only in this process is reported; one whose helper asks Redis or PostgreSQL is quiet', async () => {
    // reminders.ts: lib/key-locks.ts keeps a Set, a promise chain and a Map of async-mutex locks;
    // lib/shared-locks.ts takes a Redis SET NX and a transaction advisory lock under the same names.
    expect(await findings('schedule-in-process-lock-helper', 'src/reminders.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/reminders.ts:10:47 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/reminders.ts:11:47 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/reminders.ts:12:48 unguardedSchedule',
    ]);
  });
});
