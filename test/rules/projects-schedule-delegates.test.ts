// no-unguarded-schedule where the guard, or what stands for one, sits in another module: a lock
// helper of the project whose lock lives in this process (a Set of held keys, a promise chain, an
// async-mutex per key) guards nothing across replicas, while one asking Redis or PostgreSQL does; a
// delegate reached through a barrel, an injected service or an object exported by default is judged
// by its body (a leader lock there, a SQLite file of this host); an Electron app's package runs on
// one user's machine.
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

  test("an Electron app's tickers are quiet — in its main process and in a module of its package that imports no Electron; its server's package is judged", async () => {
    // package.json: `main` and electron in devDependencies; server/ is a package of its own.
    expect(await findings('schedule-desktop-app', 'src/main/index.ts')).toEqual([]);
    expect(await findings('schedule-desktop-app', 'src/sync/push.ts')).toEqual([]);
    expect(await findings('schedule-desktop-app', 'server/src/digest.ts')).toEqual([
      'replica-guard/no-unguarded-schedule server/src/digest.ts:6:13 unguardedSchedule',
    ]);
  });

  test('a @Cron method delegating to an injected service imported through a barrel is quiet when the service method takes a leader lock or leaves unless leader; one delegating to a method without it is reported', async () => {
    // tasks.scheduler.ts imports its services from jobs/index.ts (`export *`, `export { … } from`);
    // pruneAuditTrail's service method begins with a Redis SET NX leader lock of another module,
    // purgeExports' with `if (!this.cluster.isLeader) return;`.
    // A SessionStore whose field is a better-sqlite3 file deletes from this host's own file: quiet;
    // LoginAudit's field is a PostgreSQL pool: reported.
    expect(await findings('schedule-delegated-guards', 'src/scheduler/tasks.scheduler.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/scheduler/tasks.scheduler.ts:18:3 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/scheduler/tasks.scheduler.ts:28:3 unguardedSchedule',
    ]);
  });

  test('a job calling a method of an object a module exports by default (or through a barrel) is judged by that method', async () => {
    // cron.ts: purge-uploads' `run()` takes a Redis SET NX first (quiet, imported directly and through
    // tasks/index.ts); close-tickets' `run()` updates rows (reported both ways); a SQLite cache's sweep is quiet.
    expect(await findings('schedule-delegated-guards', 'src/cron.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/cron.ts:8:28 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/cron.ts:10:29 unguardedSchedule',
    ]);
  });
});
