// no-unguarded-schedule across the files of a project (test/rules/projects/schedule-*): the work,
// or what it calls, lives in another module — an imported function, an injected NestJS service's
// method, a reschedule helper — and is judged by what that function does: a guard or a lock there
// makes the job quiet, a deduplicated enqueue there too, a database write there makes a bare timer
// a report. Findings stay at the schedule. Linted through ESLint's Node API, plugin from source.
import { describe, expect, test } from 'vitest';
import { lintProjectFile, lintProjectMessages } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['no-unguarded-schedule']);

describe('no-unguarded-schedule across files', () => {
  test('a job whose guard is inside an imported helper is quiet; the one whose imported work writes unguarded is reported', async () => {
    // jobs.ts: sendDigests begins with claimPeriod (its module), runNightly wraps runExclusive
    // (its module), archiveOrders updates rows with no guard; imports through tsconfig paths.
    expect(await findings('schedule-guard-in-helper', 'src/jobs.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs.ts:8:28 unguardedSchedule',
    ]);
  });

  test('a @Cron method calling an injected service that takes a lock is quiet; the one whose service method deletes rows is reported', async () => {
    expect(await findings('schedule-nest-injected-lock', 'src/billing/billing.scheduler.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/billing/billing.scheduler.ts:14:3 unguardedSchedule',
    ]);
  });

  test('a bare timer whose imported work writes to the database is reported; one refreshing a local cache and a gauge is not', async () => {
    expect(await findings('schedule-bare-timer-effects', 'src/main.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/main.ts:5:13 unguardedSchedule',
      // The body only appends to a file, but the name says mail goes out: the name still counts.
      'replica-guard/no-unguarded-schedule src/main.ts:8:13 unguardedSchedule',
    ]);
  });

  test('a deduplicated enqueue in another module is quiet (cron job and bare timer); a plain enqueue there is reported', async () => {
    expect(await findings('schedule-dedup-enqueue', 'src/scheduler.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/scheduler.ts:7:31 unguardedSchedule',
    ]);
  });

  test('a setTimeout loop whose reschedule is a helper of another module is a loop; a one-off setTimeout is not', async () => {
    expect(await findings('schedule-reschedule-helper', 'src/sweepers.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/sweepers.ts:21:12 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/sweepers.ts:22:12 unguardedSchedule',
    ]);
    // The helper itself only forwards its caller's callback.
    expect(await findings('schedule-reschedule-helper', 'src/lib/timers.ts')).toEqual([]);
  });

  test('no guard is suggested through a helper: the period is the delay the helper sets, not that of the first timer', async () => {
    const messages = await lintProjectMessages('schedule-reschedule-helper', 'src/sweepers.ts', ['no-unguarded-schedule']);
    expect(messages.map((m) => [m.line, m.message.split('.')[0], m.suggestions ?? []])).toEqual([
      [21, 'setTimeout runs `sweepSessions` on every replica', []],
      [22, 'setTimeout runs `sweepUploads` on every replica', []],
    ]);
  });

  test('a call handing a method to an imported helper that schedules its parameter is the schedule', async () => {
    // lib/jobs.ts: addJob builds `new CronJob(cronTime, handle)`. The unguarded writer is reported where it is
    // handed over; a guarded one, one clearing the instance's Map and a helper that schedules nothing are not.
    expect(await findings('schedule-imported-helper', 'src/matcher.service.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/matcher.service.ts:10:53 unguardedSchedule',
    ]);
    expect(await findings('schedule-imported-helper', 'src/lib/jobs.ts')).toEqual([]);
  });

  test('a poll timer whose imported callee claims (SKIP LOCKED, an atomic Redis script) is quiet; one whose callee only reads is reported', async () => {
    expect(await findings('schedule-claim-in-module', 'src/worker.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/worker.ts:20:13 unguardedSchedule',
    ]);
  });

  test('a job calling one imported function is judged by that function: a backup that uploads and writes is reported (a lock-named string helper there takes no lock); a lock there keeps its sibling quiet', async () => {
    expect(await findings('schedule-single-imported-call', 'src/backups/schedule.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/backups/schedule.ts:7:31 unguardedSchedule',
    ]);
  });

  test('jobs started only by an exported function that the leader calls are quiet; one also started at bootstrap, or before the lock, is reported', async () => {
    // digests.ts: two cron jobs built stopped, started by startDigestJobs(), which election.ts
    // calls after its pg_try_advisory_lock answered yes (a .spec.ts calling it is not service
    // code); the third job starts as it is built.
    expect(await findings('schedule-started-by-leader', 'src/jobs/digests.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/digests.ts:8:41 unguardedSchedule',
    ]);
    // A timer set inside the exported starter, called through a namespace import.
    expect(await findings('schedule-started-by-leader', 'src/jobs/retention.ts')).toEqual([]);
    // Called through a barrel's re-export, on leader-election events (a callback, and handed to
    // `once`) and inside runExclusive.
    expect(await findings('schedule-started-by-leader', 'src/jobs/reindex.ts')).toEqual([]);
    // Also started by the server's bootstrap (main.ts).
    expect(await findings('schedule-started-by-leader', 'src/jobs/invoices.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/invoices.ts:5:57 unguardedSchedule',
    ]);
    // One of the leader module's calls comes before the lock (warmUp).
    expect(await findings('schedule-started-by-leader', 'src/jobs/exports.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs/exports.ts:5:44 unguardedSchedule',
    ]);
  });
  test('a job handed through a wrapper whose work claims each item (a marker insert, skipped when nothing went in) is quiet; an untested marker and a sync without one are reported', async () => {
    // scheduler.ts: `monitored(name, fn)` runs fn; overdue notices claim each invoice with
    // `onConflictDoNothing().returning()` and `if (!claimed) continue;`, renewal notices insert
    // the marker but send anyway, the seat sync writes to billing with no claim.
    expect(await findings('schedule-claim-per-item', 'src/scheduler.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/scheduler.ts:9:27 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/scheduler.ts:10:26 unguardedSchedule',
    ]);
  });

  test('a job run through a runner of another module that takes a Redis SET NX lock before running it is quiet; a runner without one, or whose mark is never read, is reported', async () => {
    // jobs.ts → runJob (lib/job-runner.ts) → lockUntilOrThrow (lib/mutex.ts): `if (!acquired) throw` before the job.
    expect(await findings('schedule-lock-two-calls', 'src/jobs.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/jobs.ts:10:48 unguardedSchedule',
      'replica-guard/no-unguarded-schedule src/jobs.ts:11:48 unguardedSchedule',
    ]);
  });
  test('an exported job built stopped is reported when a module of its package starts it; one only stopped there, or imported nowhere, is quiet', async () => {
    // timers.ts: server.ts calls nightlyRollup.start(), only weeklyPrune.stop() (its start is commented out), and
    // names spareReindex nowhere.
    expect(await findings('schedule-never-started', 'src/timers.ts')).toEqual([
      'replica-guard/no-unguarded-schedule src/timers.ts:4:55 unguardedSchedule',
    ]);
  });
});
