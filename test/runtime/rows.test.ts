// claimRows and boundedIncrement against real PostgreSQL, with real worker processes; and the
// read-then-write pattern the lint rules flag, measured under the same load.
import { startTogether } from '../harness/start-together.js';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import pg from 'pg';
import postgres from 'postgres';
import {
  boundedDecrement,
  boundedIncrement,
  claimRows,
  claimRowsStatement,
  fromPostgresJs,
  InvalidArgumentError,
} from '../../src/index.js';
import type { RowsTask } from './fixtures/rows-worker.js';

const DATABASE = 'rg_rows_test';
let url: string;
let db: pg.Pool;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  url = inject('postgresUrl').replace(/\/postgres$/, `/${DATABASE}`);
  db = new pg.Pool({ connectionString: url, max: 4 });
  await db.query(`
    CREATE SCHEMA app;
    CREATE TABLE app.jobs (id serial PRIMARY KEY, status text NOT NULL DEFAULT 'pending', worker text);
    CREATE TABLE app.side_effects (job_id int NOT NULL, worker text NOT NULL);
    CREATE TABLE app.counters (id int PRIMARY KEY, used int NOT NULL);
    CREATE TABLE app.naive_jobs (id serial PRIMARY KEY, status text NOT NULL DEFAULT 'pending');
    CREATE TABLE app.naive_effects (job_id int NOT NULL, worker text NOT NULL);
    CREATE TABLE app.leased (id int PRIMARY KEY, "lockedUntil" timestamptz, kind text);
  `);
});

afterAll(async () => {
  await db?.end();
});

/** Starts one worker process per task, says "go" to all at once, returns their results. */
function runWorkers<R>(tasks: RowsTask[]): Promise<R[]> {
  return startTogether<R>(
    'test/runtime/fixtures/rows-worker.ts',
    tasks.map((task) => ({ RG_PG_URL: url, RG_TASK: JSON.stringify(task) })),
  );
}

describe('claimRows', () => {
  test('8 worker processes over 1,000 rows: every row is processed exactly once', async () => {
    await db.query('TRUNCATE app.jobs, app.side_effects RESTART IDENTITY');
    await db.query(`INSERT INTO app.jobs (status) SELECT 'pending' FROM generate_series(1, 1000)`);
    const tasks: RowsTask[] = Array.from({ length: 8 }, (_, i) => ({
      kind: 'claim',
      worker: `w${i}`,
      batch: 7,
      driver: i % 2 === 0 ? 'pg' : 'postgres.js',
    }));
    const results = await runWorkers<number[]>(tasks);

    const all = results.flat();
    expect(all).toHaveLength(1000);
    expect(new Set(all).size).toBe(1000);
    const effects = await db.query<{ n: string; distinct_ids: string }>(
      'SELECT count(*) AS n, count(DISTINCT job_id) AS distinct_ids FROM app.side_effects',
    );
    expect(effects.rows[0]).toEqual({ n: '1000', distinct_ids: '1000' });
    const left = await db.query(`SELECT count(*)::int AS n FROM app.jobs WHERE status <> 'done'`);
    expect(left.rows[0].n).toBe(0);
    // Each row's recorded worker is the one whose side effect ran: the claim and the act agree.
    const mismatched = await db.query(
      'SELECT count(*)::int AS n FROM app.jobs j JOIN app.side_effects s ON s.job_id = j.id WHERE s.worker <> j.worker',
    );
    expect(mismatched.rows[0].n).toBe(0);
    // The work was actually shared: more than one worker claimed rows.
    expect(results.filter((ids) => ids.length > 0).length).toBeGreaterThan(1);
  }, 240_000);

  test('the pattern require-atomic-claim flags (SELECT pending, act, UPDATE by id) acts on rows more than once under the same load', async () => {
    await db.query(`INSERT INTO app.naive_jobs (status) SELECT 'pending' FROM generate_series(1, 1000)`);
    const results = await runWorkers<number[]>(
      Array.from({ length: 8 }, (_, i) => ({ kind: 'read-then-claim', worker: `w${i}`, batch: 7 })),
    );
    const effects = await db.query<{ n: number; distinct_ids: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT job_id)::int AS distinct_ids FROM app.naive_effects',
    );
    const { n, distinct_ids } = effects.rows[0]!;
    expect(distinct_ids).toBe(1000);
    // Every row was acted on, and some of them by two or more workers.
    expect(n).toBeGreaterThan(1000);
    expect(results.flat().length).toBe(n);
    console.log(`read-then-claim: 1000 rows, ${n} side effects (${n - 1000} duplicates)`);
  }, 240_000);

  test('limit, order, returning, null filters and schema-qualified tables', async () => {
    await db.query('TRUNCATE app.jobs RESTART IDENTITY');
    await db.query(`INSERT INTO app.jobs (status, worker) VALUES ('pending', NULL), ('pending', 'x'), ('pending', NULL), ('done', NULL)`);
    const rows = await claimRows<{ id: number; status: string }>(db, {
      table: 'app.jobs',
      limit: 5,
      where: { status: 'pending', worker: null },
      set: { status: 'running' },
      orderBy: 'id desc',
      returning: ['id', 'status'],
    });
    expect(rows.map((r) => r.id).sort()).toEqual([1, 3]);
    expect(rows.every((r) => r.status === 'running' && Object.keys(r).length === 2)).toBe(true);
    expect(
      await claimRows(db, { table: 'app.jobs', limit: 5, where: { status: 'pending', worker: null }, set: { status: 'running' } }),
    ).toEqual([]);
    const one = await claimRows<{ id: number; worker: string }>(db, {
      table: 'app.jobs',
      limit: 1,
      where: { status: 'pending' },
      set: { status: 'running' },
    });
    expect(one).toEqual([{ id: 2, status: 'running', worker: 'x' }]);
  });

  test('a lease column makes a claim expire: claimable again only after ms have passed', async () => {
    await db.query(`INSERT INTO app.leased (id, kind) VALUES (1, 'sweep'), (2, 'sweep')`);
    const options = { table: 'app.leased', limit: 10, where: { kind: 'sweep' }, lease: { column: 'lockedUntil', ms: 400 } };
    expect((await claimRows<{ id: number }>(db, options)).map((r) => r.id).sort()).toEqual([1, 2]);
    expect(await claimRows(db, options)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await claimRows(db, options)).toHaveLength(2);
  });

  test('works through postgres.js with fromPostgresJs', async () => {
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await db.query('TRUNCATE app.jobs RESTART IDENTITY');
      await db.query(`INSERT INTO app.jobs (status) VALUES ('pending'), ('pending')`);
      const rows = await claimRows<{ id: number }>(fromPostgresJs(sql), {
        table: 'app.jobs',
        limit: 10,
        where: { status: 'pending' },
        set: { status: 'done' },
      });
      expect(rows.map((r) => r.id).sort()).toEqual([1, 2]);
    } finally {
      await sql.end();
    }
  });

  test('values are parameters: a hostile value is data, never SQL', async () => {
    const { text, values } = claimRowsStatement({
      table: 'app.jobs',
      limit: 3,
      where: { status: "pending' OR 1=1 --" },
      set: { status: 'x' },
    });
    expect(text).toBe(
      'UPDATE "app"."jobs" SET "status" = $1 WHERE "id" IN (SELECT "id" FROM "app"."jobs" WHERE "status" = $2 ORDER BY "id" ASC LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING *',
    );
    expect(values).toEqual(['x', "pending' OR 1=1 --", 3]);
    expect(await claimRows(db, { table: 'app.jobs', limit: 3, where: { status: "pending' OR 1=1 --" }, set: { status: 'x' } })).toEqual([]);
  });

  test('rejects invalid identifiers, non-positive limits and claims that change nothing', async () => {
    const bad = [
      { table: 'jobs; DROP TABLE app.jobs', limit: 1, set: { s: 1 } },
      { table: 'a.b.c', limit: 1, set: { s: 1 } },
      { table: 'jobs', limit: 0, set: { s: 1 } },
      { table: 'jobs', limit: -1, set: { s: 1 } },
      { table: 'jobs', limit: 1.5, set: { s: 1 } },
      { table: 'jobs', limit: 1, set: { 'status" = 1 --': 1 } },
      { table: 'jobs', limit: 1, where: { 'a b': 1 }, set: { s: 1 } },
      { table: 'jobs', limit: 1, set: { s: 1 }, idColumn: '"id"' },
      { table: 'jobs', limit: 1, set: { s: 1 }, orderBy: 'id; drop' },
      { table: 'jobs', limit: 1, set: { s: 1 }, returning: ['*'] },
      { table: 'jobs', limit: 1, lease: { column: 'until', ms: 0 } },
      { table: 'jobs', limit: 1 },
    ];
    for (const options of bad) {
      await expect(claimRows(db, options as never), JSON.stringify(options)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    await expect(claimRows(db, { table: 'jobs', limit: 0, set: { s: 1 } })).rejects.toThrow(/limit must be a positive integer, got 0/);
    await expect(claimRows(db, { table: 'bad-name', limit: 1, set: { s: 1 } })).rejects.toThrow(/plain SQL identifier.*"bad-name"/);
    await expect(claimRows({} as never, { table: 'jobs', limit: 1, set: { s: 1 } })).rejects.toThrow(/query\(text, values\)/);
    expect(() => fromPostgresJs({})).toThrow(InvalidArgumentError);
  });
});

describe('counters', () => {
  test('8 processes × 30 boundedIncrement calls, limit 100: exactly 100 succeed, the counter ends at 100', async () => {
    await db.query('DELETE FROM app.counters WHERE id = 1');
    await db.query('INSERT INTO app.counters (id, used) VALUES (1, 0)');
    const results = await runWorkers<number>(Array.from({ length: 8 }, () => ({ kind: 'bounded-increment', attempts: 30, limit: 100 })));
    expect(results.reduce((a, b) => a + b, 0)).toBe(100);
    const { rows } = await db.query('SELECT used FROM app.counters WHERE id = 1');
    expect(rows[0].used).toBe(100);
  }, 240_000);

  test('the read-then-write pattern (SELECT, add in JS, UPDATE) loses updates under the same load', async () => {
    await db.query('DELETE FROM app.counters WHERE id = 2');
    await db.query('INSERT INTO app.counters (id, used) VALUES (2, 0)');
    const results = await runWorkers<number>(Array.from({ length: 8 }, () => ({ kind: 'read-then-write', attempts: 30 })));
    const believed = results.reduce((a, b) => a + b, 0);
    const { rows } = await db.query('SELECT used FROM app.counters WHERE id = 2');
    expect(believed).toBe(240);
    // Every worker thinks it incremented 30 times; the row says otherwise.
    expect(rows[0].used).toBeLessThan(240);
    console.log(`read-then-write: ${believed} increments made, ${rows[0].used} kept (${240 - rows[0].used} lost)`);
  }, 240_000);

  test('boundedIncrement with by, boundedDecrement with a floor, and a missing row', async () => {
    await db.query('DELETE FROM app.counters WHERE id = 3');
    await db.query('INSERT INTO app.counters (id, used) VALUES (3, 8)');
    const row = { table: 'app.counters', id: 3, column: 'used' };
    expect(await boundedIncrement(db, { ...row, by: 2, limit: 10 })).toBe(true);
    expect(await boundedIncrement(db, { ...row, by: 1, limit: 10 })).toBe(false);
    expect(await boundedDecrement(db, { ...row, by: 7 })).toBe(true);
    expect(await boundedDecrement(db, { ...row, by: 4 })).toBe(false);
    expect(await boundedDecrement(db, { ...row, by: 3, floor: 0 })).toBe(true);
    expect((await db.query('SELECT used FROM app.counters WHERE id = 3')).rows[0].used).toBe(0);
    expect(await boundedIncrement(db, { ...row, id: 999, limit: 10 })).toBe(false);
    await expect(boundedIncrement(db, { ...row, limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(boundedIncrement(db, { ...row, limit: 10, by: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(boundedIncrement(db, { ...row, column: 'used = 0 --', limit: 10 })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
