// The `advisory-lock-to-lease` rewrite on real servers: the before/after code of
// test/runtime/fixtures/advisory-lock-rewrite/backup-job.{before,after}.ts (the after file is what
// the codemod writes for the before file — checked first) run through real PgBouncer in
// transaction pooling mode (pool size 4) while other replicas keep its server connections busy.
// The session lock leaks (the unlock runs on another backend and returns false, the lock stays in
// pg_locks); the runExclusive version leaves no lock, releases its lease and the next run proceeds.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, test, vi } from 'vitest';
import { runCodemod } from '../../codemods/index.js';
import { setLeaseClient } from '../../src/index.js';

// The rewritten fixture imports the package by name, as a service would.
vi.mock('replica-guard', async () => await import('../../src/index.js'));

const DATABASE = 'rg_advisory_lock_rewrite';
const LOCK = 4242;
const SERVICE = 'advisory-lock-rewrite';
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'advisory-lock-rewrite');

type Job = { nightlyBackup: () => Promise<void>; pool: pg.Pool };
let direct: pg.Client;
let redis: Redis;
let pooledUrl: string;
const load: pg.Client[] = [];
let loading = false;
let loadRuns: Array<Promise<void>> = [];

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  direct = new pg.Client({ connectionString: inject('postgresUrl').replace(/\/postgres$/, `/${DATABASE}`) });
  await direct.connect();
  await direct.query('CREATE TABLE backup_runs (id serial PRIMARY KEY, started_at timestamptz NOT NULL)');
  // The fixtures' `new Pool()` reads the libpq variables: point them at PgBouncer, this database.
  pooledUrl = inject('pgbouncerUrl').replace(/\/postgres$/, `/${DATABASE}`);
  const url = new URL(pooledUrl);
  Object.assign(process.env, {
    PGHOST: url.hostname,
    PGPORT: url.port,
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: DATABASE,
  });
  redis = new Redis(inject('redisUrl'));
  setLeaseClient(redis);
});

afterAll(async () => {
  await stopLoad();
  for (const client of load) await client.end().catch(() => undefined);
  setLeaseClient(null);
  await redis?.quit();
  await direct?.end();
});

/** Other replicas' traffic through the same PgBouncer pool: server connections change hands between statements. */
async function startLoad(clients: number): Promise<void> {
  loading = true;
  for (let i = 0; i < clients; i++) {
    const client = new pg.Client({ connectionString: pooledUrl });
    await client.connect();
    load.push(client);
    loadRuns.push(
      (async () => {
        while (loading) await client.query('SELECT pg_sleep(0.01 * (1 + random()))');
      })(),
    );
  }
}

async function stopLoad(): Promise<void> {
  loading = false;
  await Promise.all(loadRuns);
  loadRuns = [];
}

/** Advisory locks on the job's key as PostgreSQL sees them, from a direct (non-pooled) connection. */
async function heldLocks(): Promise<number[]> {
  const { rows } = await direct.query<{ pid: number }>(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    [LOCK],
  );
  return rows.map((r) => r.pid);
}

async function runCount(): Promise<number> {
  return (await direct.query<{ n: number }>('SELECT count(*)::int AS n FROM backup_runs')).rows[0]!.n;
}

/** Records what each `pool.query` returned, so the test can see the unlock's result. */
function recordResults(pool: pg.Pool): Array<{ sql: string; row: Record<string, unknown> | undefined }> {
  const seen: Array<{ sql: string; row: Record<string, unknown> | undefined }> = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<pg.QueryResult> }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    seen.push({ sql: String(args[0]), row: result.rows[0] as Record<string, unknown> | undefined });
    return result;
  };
  return seen;
}

test('the after fixture is exactly what the codemod writes for the before fixture', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'advisory-lock-rewrite-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'job', type: 'module' }));
    copyFileSync(join(fixtures, 'backup-job.before.ts'), join(dir, 'backup-job.ts'));
    const report = await runCodemod({ cwd: dir, transforms: ['advisory-lock-to-lease'], service: SERVICE, force: true });
    expect(report.errors).toEqual([]);
    expect(report.findingsFixed).toBe(2);
    expect(readFileSync(join(dir, 'backup-job.ts'), 'utf8')).toBe(readFileSync(join(fixtures, 'backup-job.after.ts'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('before: through PgBouncer the session lock leaks — the unlock returns false and the lock stays in pg_locks', async () => {
  const before = (await import('./fixtures/advisory-lock-rewrite/backup-job.before.js')) as Job;
  before.pool.on('error', () => undefined);
  const seen = recordResults(before.pool);
  await startLoad(4);
  let leaked = false;
  try {
    // Each run is the fixture as written; under load its lock and unlock land on different backends.
    for (let run = 0; run < 30 && !leaked; run++) {
      await before.nightlyBackup();
      leaked = (await heldLocks()).length > 0;
    }
  } finally {
    await stopLoad();
  }
  expect(leaked).toBe(true);
  const unlocks = seen.filter((s) => s.sql.includes('pg_advisory_unlock'));
  expect(unlocks.some((u) => u.row?.pg_advisory_unlock === false)).toBe(true);
  // The job returned, yet PostgreSQL shows the lock held by a server connection nobody owns.
  expect(await heldLocks()).toHaveLength(1);

  // The next run from a connection on another backend is skipped: the job silently stops.
  const other = new pg.Client({ connectionString: pooledUrl });
  await other.connect();
  load.push(other);
  const holder = (await heldLocks())[0];
  const attempt = await other.query<{ ok: boolean; pid: number }>('SELECT pg_try_advisory_lock($1) AS ok, pg_backend_pid() AS pid', [LOCK]);
  if (attempt.rows[0]!.pid !== holder) expect(attempt.rows[0]!.ok).toBe(false);
  else await other.query('SELECT pg_advisory_unlock($1)', [LOCK]);
  await before.pool.end();
  // Clean up the leak for the next test: end the backend that holds it.
  await direct.query('SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = $1 AND objid = $2', ['advisory', LOCK]);
  await vi.waitFor(async () => expect(await heldLocks()).toEqual([]));
});

test('after: runExclusive on Redis leaves no lock, releases its lease, and every next run proceeds', async () => {
  const after = (await import('./fixtures/advisory-lock-rewrite/backup-job.after.js')) as Job;
  after.pool.on('error', () => undefined);
  // Lease keys only: not the fencing-token counter (`{…}:fence`), which outlives the lease by design
  // so tokens keep increasing, and is never a lock (the next run proceeds, checked below).
  const leaseKeys = async (): Promise<string[]> =>
    (await redis.keys(`*${SERVICE}:nightly-backup*`)).filter((k) => !k.includes('stats') && !k.endsWith(':fence'));
  await direct.query('TRUNCATE backup_runs');
  await startLoad(4);
  try {
    for (let run = 1; run <= 10; run++) {
      await after.nightlyBackup();
      expect(await runCount()).toBe(run);
      expect(await heldLocks()).toEqual([]);
      expect(await leaseKeys()).toEqual([]);
    }
    // While a run holds the lease its key is in Redis (so the empty checks above can fail).
    const running = after.nightlyBackup();
    await vi.waitFor(async () => expect(await leaseKeys()).toHaveLength(1), { interval: 5, timeout: 2_000 });
    await running;
    await direct.query('DELETE FROM backup_runs WHERE id = (SELECT max(id) FROM backup_runs)');
    // Two replicas at once: the lease lets exactly one of them run.
    await Promise.all([after.nightlyBackup(), after.nightlyBackup()]);
    expect(await runCount()).toBe(11);
    // … and the one after them proceeds.
    await after.nightlyBackup();
    expect(await runCount()).toBe(12);
  } finally {
    await stopLoad();
    await after.pool.end();
  }
  expect(await heldLocks()).toEqual([]);
});
