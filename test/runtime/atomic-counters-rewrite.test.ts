// The `atomic-counters` rewrite on real PostgreSQL: the exact before/after code of three codemod
// fixtures (test/codemods/fixtures/atomic-counters/*.{input,output}.ts, pg and postgres.js) run by 8 concurrent
// callers. The read-then-write version loses updates (and lets withdrawals overdraw); the
// rewritten `SET balance = balance ± $1` version loses none and keeps the bound.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

const DATABASE = 'rg_atomic_counters_rewrite';
const CALLERS = 8;
const FIXTURES = '../codemods/fixtures/atomic-counters';

type Deposit = (id: string, amount: number) => Promise<void>;
type Withdraw = (id: string, amount: number) => Promise<void>;
let direct: pg.Client;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  // The fixtures call `new Pool()` / `postgres()`, which read the standard libpq variables.
  const url = new URL(inject('postgresUrl'));
  Object.assign(process.env, {
    PGHOST: url.hostname,
    PGPORT: url.port,
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: DATABASE,
  });
  direct = new pg.Client({ connectionString: inject('postgresUrl').replace(/\/postgres$/, `/${DATABASE}`) });
  await direct.connect();
  await direct.query('CREATE TABLE accounts (id text PRIMARY KEY, balance integer NOT NULL)');
  await direct.query('CREATE TABLE products (id text PRIMARY KEY, stock integer NOT NULL)');
});

afterAll(async () => {
  await direct?.end();
});

async function open(id: string, balance: number): Promise<void> {
  await direct.query('INSERT INTO accounts (id, balance) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET balance = $2', [id, balance]);
}

async function balanceOf(id: string): Promise<number> {
  return (await direct.query<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [id])).rows[0]!.balance;
}

/** 8 callers at once, each depositing `times` times; returns the final balance from 0. */
async function concurrentDeposits(deposit: Deposit, id: string, times: number): Promise<number> {
  await open(id, 0);
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      for (let i = 0; i < times; i += 1) await deposit(id, 1);
    }),
  );
  return balanceOf(id);
}

/** 8 callers at once withdrawing 30 from 100; returns how many succeeded and the final balance. */
async function concurrentWithdrawals(withdraw: Withdraw, id: string): Promise<{ succeeded: number; balance: number }> {
  await open(id, 100);
  const results = await Promise.allSettled(Array.from({ length: CALLERS }, () => withdraw(id, 30)));
  for (const result of results) {
    if (result.status === 'rejected') expect(String(result.reason)).toMatch(/insufficient funds/);
  }
  return { succeeded: results.filter((r) => r.status === 'fulfilled').length, balance: await balanceOf(id) };
}

describe('pg-local-value: deposit', () => {
  test('before: concurrent read-then-write deposits lose updates', async () => {
    const { deposit } = (await import(`${FIXTURES}/pg-local-value.input.ts`)) as { deposit: Deposit };
    const final = await concurrentDeposits(deposit, 'before-deposit', 25);
    expect(final).toBeLessThan(CALLERS * 25);
  });

  test('after: SET balance = balance + $1 loses none', async () => {
    const { deposit } = (await import(`${FIXTURES}/pg-local-value.output.ts`)) as { deposit: Deposit };
    expect(await concurrentDeposits(deposit, 'after-deposit', 25)).toBe(CALLERS * 25);
  });
});

describe('pg-guarded-withdraw: withdraw with an insufficient-funds check', () => {
  test('before: concurrent withdrawals pass the stale check and the books do not add up', async () => {
    const { withdraw } = (await import(`${FIXTURES}/pg-guarded-withdraw.input.ts`)) as { withdraw: Withdraw };
    let violated = false;
    // Scheduling could serialise one round; the race shows within a few.
    for (let round = 0; round < 10 && !violated; round += 1) {
      const { succeeded, balance } = await concurrentWithdrawals(withdraw, `before-withdraw-${round}`);
      violated = balance !== 100 - 30 * succeeded;
    }
    expect(violated).toBe(true);
  });

  test('after: the bound in WHERE and the rowCount check let exactly three through, never below zero', async () => {
    const { withdraw } = (await import(`${FIXTURES}/pg-guarded-withdraw.output.ts`)) as { withdraw: Withdraw };
    for (let round = 0; round < 5; round += 1) {
      const { succeeded, balance } = await concurrentWithdrawals(withdraw, `after-withdraw-${round}`);
      expect({ succeeded, balance }).toEqual({ succeeded: 3, balance: 10 });
    }
  });
});

describe('postgres-js-guarded: take stock with an out-of-stock check (postgres.js tagged templates)', () => {
  type Take = (id: string, qty: number) => Promise<void>;
  async function concurrentTakes(take: Take, id: string): Promise<{ succeeded: number; stock: number }> {
    await direct.query('INSERT INTO products (id, stock) VALUES ($1, 100) ON CONFLICT (id) DO UPDATE SET stock = 100', [id]);
    const results = await Promise.allSettled(Array.from({ length: CALLERS }, () => take(id, 30)));
    for (const result of results) {
      if (result.status === 'rejected') expect(String(result.reason)).toMatch(/out of stock/);
    }
    const stock = (await direct.query<{ stock: number }>('SELECT stock FROM products WHERE id = $1', [id])).rows[0]!.stock;
    return { succeeded: results.filter((r) => r.status === 'fulfilled').length, stock };
  }

  test('before: more takes succeed than the stock covers', async () => {
    const { take } = (await import(`${FIXTURES}/postgres-js-guarded.input.ts`)) as { take: Take };
    let violated = false;
    for (let round = 0; round < 10 && !violated; round += 1) {
      const { succeeded, stock } = await concurrentTakes(take, `before-take-${round}`);
      violated = stock !== 100 - 30 * succeeded;
    }
    expect(violated).toBe(true);
  });

  test('after: stock - ${qty} >= 0 in WHERE and the count check let exactly three through', async () => {
    const { take } = (await import(`${FIXTURES}/postgres-js-guarded.output.ts`)) as { take: Take };
    for (let round = 0; round < 5; round += 1) {
      expect(await concurrentTakes(take, `after-take-${round}`)).toEqual({ succeeded: 3, stock: 10 });
    }
  });
});
