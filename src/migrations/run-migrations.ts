// A service's migrate entrypoint: connect directly to PostgreSQL with POSTGRES_MIGRATE_URL, hold
// pg_advisory_lock(<service key>) on one pinned connection for the whole run (so pods starting
// together wait for each other instead of racing the same DDL), run the service's migrator,
// unlock, and exit non-zero on any failure.
import { InvalidArgumentError, ReplicaGuardError } from '../errors.js';
import { defaultLogger, describeError, writeLog, type Logger } from '../logger.js';
import { migrationLockKey } from './lock-key.js';
import { connectWithPg, type Migrate, type MigrationClient } from './migration-client.js';
import { pooledSessionReason, poolerUrlReason, redactUrl } from './pooler-url.js';

export const MIGRATE_URL_VARIABLE = 'POSTGRES_MIGRATE_URL';

export interface RunMigrationsOptions<C extends MigrationClient = MigrationClient> {
  /** Direct PostgreSQL URL. Default: `process.env.POSTGRES_MIGRATE_URL`; required. */
  url?: string;
  /** The service's advisory lock key: a signed int64 bigint, or a string hashed with SHA-256 (see `migrationLockKey`). */
  lockKey: bigint | number | string;
  /** Runs the service's migrations on the pinned, locked connection (or on its own pool with `context.url`). */
  migrate: Migrate<C>;
  /** Give up waiting for the lock after this many ms (PostgreSQL `lock_timeout`). Default 0: wait as long as it takes. */
  lockTimeoutMs?: number;
  /** Where progress and failures are written. Default: console. */
  logger?: Logger;
  /** On failure: `true` (default) logs and calls `process.exit(1)`; `false` rejects instead (for tests). */
  exit?: boolean;
  /** Accept a URL or session that looks like PgBouncer. Only for poolers in session mode. */
  allowPooler?: boolean;
  /** Opens the pinned connection. Default: a node-postgres `Client` (the `pg` package, loaded on demand). */
  connect?: (url: string) => Promise<C>;
}

export interface MigrationRunResult {
  lockKey: bigint;
  /** How long this pod waited for another pod's run to finish. */
  waitedMs: number;
  /** How long the migrator ran. */
  migratedMs: number;
}

/**
 * Runs the service's migrations under the service's advisory lock. Resolves when they are applied
 * and the lock is released; on any failure logs and exits with code 1 (or rejects, with `exit: false`).
 */
export async function runMigrations<C extends MigrationClient = MigrationClient>(
  options: RunMigrationsOptions<C>,
): Promise<MigrationRunResult> {
  const logger = options?.logger ?? defaultLogger;
  try {
    return await runLocked(options, logger);
  } catch (caught) {
    const error =
      caught instanceof ReplicaGuardError
        ? caught
        : new ReplicaGuardError('MIGRATION_FAILED', `migrations failed: ${describeError(caught)}`, { cause: caught });
    writeLog(logger, 'error', `migrate: ${describeError(error)}`);
    if (options?.exit !== false) {
      process.exitCode = 1;
      process.exit(1);
    }
    throw error;
  }
}

async function runLocked<C extends MigrationClient>(options: RunMigrationsOptions<C>, logger: Logger): Promise<MigrationRunResult> {
  if (!options || typeof options.migrate !== 'function')
    throw new InvalidArgumentError('runMigrations: `migrate` must be a function that runs the service’s migrator');
  if (options.lockKey === undefined)
    throw new InvalidArgumentError('runMigrations: `lockKey` is required (the service name is a good one)');
  const lockKey = migrationLockKey(options.lockKey);
  const lockTimeoutMs = options.lockTimeoutMs ?? 0;
  if (!Number.isFinite(lockTimeoutMs) || lockTimeoutMs < 0)
    throw new InvalidArgumentError(`runMigrations: lockTimeoutMs must be a non-negative number, got ${lockTimeoutMs}`);

  const raw = options.url ?? process.env[MIGRATE_URL_VARIABLE];
  if (!raw) {
    throw new ReplicaGuardError(
      'MIGRATE_URL_MISSING',
      `${MIGRATE_URL_VARIABLE} is not set: the migrate entrypoint connects with ${MIGRATE_URL_VARIABLE}, a direct PostgreSQL URL (never PgBouncer), and does not start without it`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new InvalidArgumentError(`runMigrations: ${MIGRATE_URL_VARIABLE} is not a valid URL`, { cause: error });
  }
  const urlReason = options.allowPooler ? undefined : poolerUrlReason(url);
  if (urlReason) throw poolerError(url, urlReason);

  const connect = options.connect ?? (connectWithPg as unknown as (url: string) => Promise<C>);
  const client = await connect(raw);
  let connectionError: Error | undefined;
  // A dropped connection releases the lock on the server; remember it so the run cannot succeed.
  client.on?.('error', (error) => {
    connectionError = error;
  });
  let locked = false;
  try {
    if (!options.allowPooler) {
      const { rows } = await client.query('select pg_backend_pid() as pid');
      const sessionReason = pooledSessionReason(client.processID, rows[0]?.pid);
      if (sessionReason) throw poolerError(url, sessionReason);
    }

    const started = Date.now();
    const key = lockKey.toString();
    const tried = await client.query('select pg_try_advisory_lock($1::bigint) as locked', [key]);
    if (tried.rows[0]?.locked !== true) {
      const holder = await client.query(
        `select pid from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())
           and classid = (($1::bigint >> 32) & 4294967295)::bigint::oid and objid = ($1::bigint & 4294967295)::bigint::oid and objsubid = 1`,
        [key],
      );
      const pid = holder.rows[0]?.pid;
      writeLog(
        logger,
        'info',
        `migrate: waiting for migration lock ${key}${pid === undefined ? '' : ` held by backend ${String(pid)}`} (another pod is migrating)`,
      );
      await waitForLock(client, key, lockTimeoutMs);
    }
    locked = true;
    const waitedMs = Date.now() - started;
    writeLog(logger, 'info', `migrate: holding migration lock ${key}; running migrations`);

    const migrateStarted = Date.now();
    await options.migrate(client, { url: raw, lockKey, logger });
    if (connectionError)
      throw new ReplicaGuardError('MIGRATION_FAILED', 'the connection holding the migration lock was lost during the run', {
        cause: connectionError,
      });
    const migratedMs = Date.now() - migrateStarted;
    writeLog(logger, 'info', `migrate: migrations applied in ${migratedMs} ms`);
    return { lockKey, waitedMs, migratedMs };
  } finally {
    if (locked && !connectionError) {
      await client.query('select pg_advisory_unlock($1::bigint)', [lockKey.toString()]).catch((error: unknown) => {
        writeLog(logger, 'warn', `migrate: unlocking failed (${describeError(error)}); closing the connection releases it`);
      });
    }
    // Closing the session releases any session lock still held, whatever happened above.
    await client.end().catch(() => undefined);
  }
}

async function waitForLock(client: MigrationClient, key: string, lockTimeoutMs: number): Promise<void> {
  if (lockTimeoutMs === 0) {
    await client.query('select pg_advisory_lock($1::bigint)', [key]);
    return;
  }
  const previous = await client.query(`select current_setting('lock_timeout') as value`);
  await client.query(`select set_config('lock_timeout', $1, false)`, [`${Math.max(1, Math.ceil(lockTimeoutMs))}ms`]);
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [key]);
  } catch (error) {
    if ((error as { code?: unknown }).code === '55P03') {
      throw new ReplicaGuardError(
        'MIGRATE_LOCK_TIMEOUT',
        `gave up waiting for migration lock ${key} after ${lockTimeoutMs} ms (lockTimeoutMs): another run still holds it`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    // The migrations themselves run with the session's own lock_timeout.
    await client.query(`select set_config('lock_timeout', $1, false)`, [String(previous.rows[0]?.value ?? '0')]).catch(() => undefined);
  }
}

function poolerError(url: URL, reason: string): ReplicaGuardError {
  return new ReplicaGuardError(
    'MIGRATE_URL_POOLER',
    `${MIGRATE_URL_VARIABLE} (${redactUrl(url)}) looks like PgBouncer or another pooler: ${reason}. A session advisory lock through a transaction pooler does not hold; point ${MIGRATE_URL_VARIABLE} directly at PostgreSQL (or pass allowPooler: true for a pooler in session mode)`,
  );
}
