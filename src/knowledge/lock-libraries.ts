// Lock libraries whose locks are PostgreSQL session advisory locks: the SQL is inside the package,
// so a service that uses one writes no `pg_advisory_lock` of its own.
//
// - `advisory-lock`: `advisoryLock(connectionString)` opens a connection of its own and returns a
//   factory of named mutexes (`createMutex('job')`); `lock()`/`tryLock()`/`withLock(fn)` take
//   `pg_advisory_lock`/`pg_try_advisory_lock` on that connection, their `Shared` forms the shared
//   ones, and `unlock()` runs `pg_advisory_unlock` as a separate statement. A session lock on a
//   dedicated connection: through PgBouncer transaction pooling lock and unlock part ways, and a
//   dropped connection frees the lock mid-job.
// - `pg-mutex-lock`: `new PGMutexLock({ database })` opens a `pg` client of its own; `acquireLock(key)`
//   polls `pg_try_advisory_lock` on it and `releaseLock(key)` runs `pg_advisory_unlock`: the same
//   session lock on a dedicated connection, the mutex made by `new` instead of a factory.
import { LEADER_WORDS, LOCK_WORDS } from './per-replica.js';
import { XACT_ADVISORY_LOCK_FUNCTIONS } from './sql.js';

export interface SessionLockLibrary {
  /** The package. */
  module: string;
  /** The mutex methods that take a lock, and the SQL function each one runs. */
  locks: Readonly<Record<string, string>>;
  /** How a mutex is made from the module's binding: called twice (`factory(url)('name')`, the default) or constructed (`new Mutex(opts)`). */
  made?: 'factory' | 'class';
}

export const SESSION_LOCK_LIBRARIES: readonly SessionLockLibrary[] = [
  {
    module: 'advisory-lock',
    locks: {
      lock: 'pg_advisory_lock',
      tryLock: 'pg_try_advisory_lock',
      withLock: 'pg_advisory_lock',
      lockShared: 'pg_advisory_lock_shared',
      withLockShared: 'pg_advisory_lock_shared',
    },
  },
  { module: 'pg-mutex-lock', made: 'class', locks: { acquireLock: 'pg_try_advisory_lock' } },
];

/** Whether a file's text names a lock library's module (the rule's pre-check for files that write no SQL). */
export function namesSessionLockLibrary(text: string): boolean {
  return SESSION_LOCK_LIBRARIES.some((library) => text.includes(library.module));
}

/** The session lock library a module specifier names, if any. */
export function sessionLockLibrary(specifier: string): SessionLockLibrary | undefined {
  return SESSION_LOCK_LIBRARIES.find((library) => library.module === specifier);
}

/** Verbs of a lock-named receiver beside `LOCK_VERBS` (`tallyLock.coalesce(key, fn)`: the callers asking at once share one run under the lock). */
export const COALESCING_LOCK_VERBS: readonly string[] = ['coalesce'];

/** Words of a receiver whose lock holds within this process only (async-mutex's `Mutex`, a `Semaphore`). */
export const IN_PROCESS_LOCK_WORDS: readonly string[] = ['mutex', 'semaphore'];

/**
 * Words of a call, its receiver or a callback's key that take a distributed lock or lease whose
 * callback runs once it is held (`startRedlock({ onLock })`, `lease.acquire().then(…)`): the lock and
 * leader words less the in-process ones, and the plurals a receiver is named with (`this.locks`).
 */
export const HELD_LOCK_WORDS: readonly string[] = [
  ...LOCK_WORDS.filter((word) => !IN_PROCESS_LOCK_WORDS.includes(word)),
  ...LEADER_WORDS.filter((word) => !LOCK_WORDS.includes(word)),
  'locks',
  'leases',
  'election',
];

/**
 * Words of a helper's name that say it takes a transaction-scoped advisory lock when handed the
 * transaction (`takeTransactionAdvisoryLocks(tx, keys)`, `xactAdvisoryLockFor(trx, key)`): with a
 * lock word (`lock`, `locks`), such a helper holds every other transaction taking the lock until commit.
 */
export const TRANSACTION_LOCK_NAME_WORDS: readonly string[] = ['advisory', 'xact'];

/**
 * SQL that takes an exclusive transaction-scoped advisory lock and waits for it (sql.ts's forms, but not the
 * `try` form, whose answer must be tested, nor the shared one, which other shared takers pass).
 */
export const TRANSACTION_ADVISORY_LOCK_SQL = new RegExp(
  `\\b(?:${XACT_ADVISORY_LOCK_FUNCTIONS.filter((f) => !f.startsWith('pg_try_') && !f.endsWith('_shared')).join('|')})\\s*\\(`,
  'i',
);
