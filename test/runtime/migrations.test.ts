// runMigrations against real PostgreSQL and PgBouncer, with pods as real child processes running
// test/runtime/fixtures/migrate/pod.ts (a migrate entrypoint as a service would write it).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { migrationLockKey, runMigrations, ReplicaGuardError } from '../../src/index.js';

const POD = 'test/runtime/fixtures/migrate/pod.ts';
const run = randomBytes(3).toString('hex');
const databases: string[] = [];
let admin: pg.Client;

function urlFor(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.href;
}

/** A fresh database with the `migration_effects` table every fixture migration writes a row to. */
async function freshDatabase(label: string): Promise<string> {
  const name = `rg_migrate_${run}_${label.replace(/[^a-z0-9]/g, '_')}`;
  await admin.query(`create database ${name}`);
  databases.push(name);
  const url = urlFor(inject('postgresUrl'), name);
  await withClient(url, (c) =>
    c.query('create table migration_effects (id serial primary key, migrator text not null, step text not null)'),
  );
  return url;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface PodExit {
  code: number | null;
  stdout: string;
  stderr: string;
}
interface Pod {
  child: ChildProcess;
  output: () => string;
  exited: Promise<PodExit>;
}

function startPod(env: Record<string, string | undefined>): Pod {
  const { POSTGRES_MIGRATE_URL: _inherited, ...parent } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', POD], { env: { ...parent, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<PodExit>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, output: () => stdout + stderr, exited };
}

async function effects(url: string): Promise<string[]> {
  return withClient(url, async (c) =>
    (await c.query<{ step: string }>("select migrator || ':' || step as step from migration_effects order by id")).rows.map((r) => r.step),
  );
}

async function tables(url: string): Promise<string[]> {
  return withClient(url, async (c) =>
    (
      await c.query<{ t: string }>(
        `select table_name as t from information_schema.tables where table_schema = 'public' and table_name in ('widgets', 'gadgets') order by 1`,
      )
    ).rows.map((r) => r.t),
  );
}

/** Advisory locks held in `url`'s database, by anyone. */
async function advisoryLocks(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ n: number }>(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
    );
    return rows[0]?.n ?? -1;
  });
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
});

afterAll(async () => {
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
  await admin.end();
});

const expectedSteps: Record<string, string[]> = {
  knex: ['knex:001_widgets', 'knex:002_gadgets'],
  'node-pg-migrate': ['node-pg-migrate:1_widgets', 'node-pg-migrate:2_gadgets'],
  drizzle: ['drizzle:0000_widgets', 'drizzle:0001_gadgets'],
  typeorm: ['typeorm:widgets', 'typeorm:gadgets'],
  kysely: ['kysely:001_widgets', 'kysely:002_gadgets'],
  umzug: ['umzug:001_widgets', 'umzug:002_gadgets'],
};

describe('pods starting at once', () => {
  // Pods are slow to start on a small machine: four for the three main migrators, two for the rest.
  test.each([
    ['knex', 4],
    ['node-pg-migrate', 4],
    ['drizzle', 4],
    ['typeorm', 2],
    ['kysely', 2],
    ['umzug', 2],
  ] as const)('%s: %i pods starting at once apply the migration set exactly once and all exit 0', async (migrator, count) => {
    const url = await freshDatabase(`concurrent_${migrator}`);
    const pods = Array.from({ length: count }, () =>
      startPod({ POSTGRES_MIGRATE_URL: url, MIGRATOR: migrator, LOCK_KEY: `svc-${migrator}` }),
    );
    const exits = await Promise.all(pods.map((p) => p.exited));
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0 });
    expect(await effects(url)).toEqual(expectedSteps[migrator]);
    expect(await tables(url)).toEqual(['gadgets', 'widgets']);
    expect(await advisoryLocks(url)).toBe(0);

    // A pod restarted later finds nothing to do.
    const again = await startPod({ POSTGRES_MIGRATE_URL: url, MIGRATOR: migrator, LOCK_KEY: `svc-${migrator}` }).exited;
    expect(again.code, again.stderr).toBe(0);
    expect(await effects(url)).toEqual(expectedSteps[migrator]);
  });

  test('prisma migrate deploy runs under the lock with the direct URL as DATABASE_URL and DIRECT_URL', async () => {
    const url = await freshDatabase('prisma');
    const pods = Array.from({ length: 2 }, () => startPod({ POSTGRES_MIGRATE_URL: url, MIGRATOR: 'prisma' }));
    const exits = await Promise.all(pods.map((p) => p.exited));
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0 });
    // The stand-in has no migrations table, so both pods run it — one after the other, each under the lock.
    expect(await effects(url)).toEqual(['prisma:under-lock direct=true', 'prisma:under-lock direct=true']);
  });
});

test('a pod waits, without failing, while another run holds the lock', async () => {
  const url = await freshDatabase('waiting');
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query('select pg_advisory_lock($1::bigint)', [migrationLockKey('svc-waiting').toString()]);
  const pod = startPod({ POSTGRES_MIGRATE_URL: url, MIGRATOR: 'node-pg-migrate', LOCK_KEY: 'svc-waiting' });
  try {
    await until('the pod to report waiting', () => /waiting for migration lock .* held by backend \d+/.test(pod.output()));
    await new Promise((r) => setTimeout(r, 1000));
    expect(pod.child.exitCode).toBeNull();
    expect(await effects(url)).toEqual([]);
  } finally {
    await holder.query('select pg_advisory_unlock_all()');
    await holder.end();
  }
  const exit = await pod.exited;
  expect(exit.code, exit.stderr).toBe(0);
  expect(await effects(url)).toEqual(expectedSteps['node-pg-migrate']);
});

describe('a failing migration', () => {
  test.each([
    ['knex', 2],
    ['node-pg-migrate', 2],
    ['drizzle', 2],
    ['typeorm', 1],
    ['kysely', 1],
    ['umzug', 1],
    ['prisma', 1],
  ] as const)('%s: each of %i pods exits non-zero and no advisory lock is left behind', async (migrator, count) => {
    const url = await freshDatabase(`fail_${migrator}`);
    const pods = Array.from({ length: count }, () =>
      startPod({ POSTGRES_MIGRATE_URL: url, MIGRATOR: migrator, SET: 'fail', LOCK_KEY: `svc-fail-${migrator}` }),
    );
    const exits = await Promise.all(pods.map((p) => p.exited));
    for (const exit of exits) {
      expect(exit.code).toBe(1);
      expect(exit.stderr).toMatch(/replica-guard: migrate: MIGRATION_FAILED/);
      expect(exit.stdout).not.toMatch(/migrations done/);
    }
    expect(await advisoryLocks(url)).toBe(0);
  });
});

test('a missing POSTGRES_MIGRATE_URL exits non-zero naming the variable', async () => {
  const exit = await startPod({ MIGRATOR: 'knex' }).exited;
  expect(exit.code).toBe(1);
  expect(exit.stderr).toMatch(/MIGRATE_URL_MISSING: POSTGRES_MIGRATE_URL is not set/);
});

test('a URL that reaches PostgreSQL through PgBouncer is refused', async () => {
  const url = await freshDatabase('pgbouncer');
  const exit = await startPod({ POSTGRES_MIGRATE_URL: urlFor(inject('pgbouncerUrl'), url.split('/').pop()!), MIGRATOR: 'knex' }).exited;
  expect(exit.code).toBe(1);
  expect(exit.stderr).toMatch(/MIGRATE_URL_POOLER: POSTGRES_MIGRATE_URL .* looks like PgBouncer .*a pooler in between/);
  expect(await effects(url)).toEqual([]);
});

describe('in process (exit: false)', () => {
  const noMigrate = async () => {
    throw new Error('migrate must not run');
  };

  test.each([
    ['postgres://app:secret@orders-pgbouncer.internal:5432/orders', /host "orders-pgbouncer.internal" is named like a connection pooler/],
    ['postgres://app:secret@db.internal:6432/orders', /port 6432 is PgBouncer's default/],
    ['postgres://app:secret@pooler.supabase.com/orders', /named like a connection pooler/],
  ])('%s is refused before connecting, password masked', async (url, reason) => {
    const error = await runMigrations({ url, lockKey: 'svc', migrate: noMigrate, exit: false, logger: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplicaGuardError);
    expect(error).toMatchObject({ code: 'MIGRATE_URL_POOLER' });
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).not.toMatch(/secret/);
  });

  test('the direct URL is accepted and migrate gets the pinned, locked session', async () => {
    const url = await freshDatabase('inprocess');
    let seen: unknown;
    const result = await runMigrations({
      url,
      lockKey: 4242n,
      exit: false,
      logger: {},
      migrate: async (client) => {
        const { rows } = await client.query(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 4242 and pid = pg_backend_pid() and granted`,
        );
        seen = rows[0]?.n;
      },
    });
    expect(seen).toBe(1);
    expect(result.lockKey).toBe(4242n);
    expect(await advisoryLocks(url)).toBe(0);
  });

  test('a migrator error rejects with MIGRATION_FAILED and its cause, and unlocks', async () => {
    const url = await freshDatabase('reject');
    const cause = new Error('relation "no_such_table" does not exist');
    const error = await runMigrations({
      url,
      lockKey: 'svc-reject',
      exit: false,
      logger: {},
      migrate: async () => Promise.reject(cause),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MIGRATION_FAILED', cause });
    expect(await advisoryLocks(url)).toBe(0);
  });

  test('lockTimeoutMs gives up waiting with MIGRATE_LOCK_TIMEOUT and never runs migrate', async () => {
    const url = await freshDatabase('timeout');
    await withClient(url, async (holder) => {
      await holder.query('select pg_advisory_lock($1::bigint)', [migrationLockKey('svc-timeout').toString()]);
      const started = Date.now();
      const error = await runMigrations({
        url,
        lockKey: 'svc-timeout',
        lockTimeoutMs: 300,
        exit: false,
        logger: {},
        migrate: noMigrate,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'MIGRATE_LOCK_TIMEOUT' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and pid <> pg_backend_pid()`,
      );
      expect(rows[0]?.n).toBe(0);
    });
  });

  test('a missing url rejects with MIGRATE_URL_MISSING', async () => {
    const saved = process.env.POSTGRES_MIGRATE_URL;
    delete process.env.POSTGRES_MIGRATE_URL;
    try {
      await expect(runMigrations({ lockKey: 'svc', migrate: noMigrate, exit: false, logger: {} })).rejects.toMatchObject({
        code: 'MIGRATE_URL_MISSING',
      });
    } finally {
      if (saved !== undefined) process.env.POSTGRES_MIGRATE_URL = saved;
    }
  });
});

describe('migrationLockKey', () => {
  test('a string key is the first 8 bytes of SHA-256, as PostgreSQL computes it from the documented expression', async () => {
    for (const key of ['orders-service', 'billing', 'ünïcode-svc']) {
      const { rows } = await admin.query<{ k: string }>(
        `select ('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint::text as k`,
        [key],
      );
      expect(migrationLockKey(key).toString()).toBe(rows[0]?.k);
    }
    expect(migrationLockKey('orders-service')).toBe(migrationLockKey('orders-service'));
    expect(migrationLockKey('orders-service')).not.toBe(migrationLockKey('billing'));
  });

  test('bigints are used as is; out of int64 range, empty or fractional keys are refused', () => {
    expect(migrationLockKey(-(2n ** 63n))).toBe(-(2n ** 63n));
    expect(migrationLockKey(7)).toBe(7n);
    expect(() => migrationLockKey(2n ** 63n)).toThrow(/signed 64-bit/);
    expect(() => migrationLockKey('')).toThrow(/empty/);
    expect(() => migrationLockKey(1.5)).toThrow(/safe integer/);
  });
});
