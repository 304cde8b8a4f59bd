// Fencing tokens: every acquisition gets a token that grows per key across holders, processes,
// releases, expiries and stores; a holder frozen past its lease (SIGSTOP, a real child process)
// has its fenced write refused by PostgreSQL itself once another replica wrote with a newer token.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  createGuards,
  fenceTableStatements,
  FencingTokenRejectedError,
  InvalidArgumentError,
  leaseTableStatements,
  withFence,
} from '../../src/index.js';
import { execute, withDatabase } from './fixtures/postgres-store/lease-database.js';
import { storeFactory, type ConnectedLeaseClient } from './stores.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const DATA_DB = `rg_fencing_${randomBytes(3).toString('hex')}`;
let dataUrl: string;
let data: pg.Pool;

beforeAll(async () => {
  await execute(inject('postgresUrl'), [`CREATE DATABASE ${DATA_DB}`]);
  dataUrl = withDatabase(inject('postgresUrl'), DATA_DB);
  await execute(dataUrl, [
    ...fenceTableStatements(),
    ...leaseTableStatements(),
    'CREATE TABLE fenced_accounts (id int PRIMARY KEY, written_by text, note text, fence bigint NOT NULL DEFAULT 0)',
  ]);
  data = new pg.Pool({ connectionString: dataUrl, max: 4 });
});
afterAll(async () => {
  await data?.end();
  await execute(inject('postgresUrl'), [`DROP DATABASE IF EXISTS ${DATA_DB} WITH (FORCE)`]);
});

/** Reads the child's stdout until `pattern` matches; rejects if it exits first. */
function waitForLine(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
  output: { text: string; err: string },
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(output.text);
      if (match) {
        child.stdout.off('data', check);
        child.off('exit', onExit);
        resolve(match);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`holder exited with ${code}:\n${output.err}\n${output.text}`));
    child.stdout.on('data', check);
    child.on('exit', onExit);
    check();
  });
}

describe.each(['ioredis', 'postgres (pg)'])('a holder frozen past its lease (%s lease store)', (name) => {
  const factory = storeFactory(name);
  const prefix = `fencing:${name}:${randomUUID()}:`;
  let connected: ConnectedLeaseClient;

  beforeAll(async () => {
    connected = await factory.connect(inject(factory.urlKey));
    await data.query(
      "INSERT INTO fenced_accounts (id, written_by, note) VALUES (1, 'nobody', 'nobody') ON CONFLICT (id) DO UPDATE SET written_by = 'nobody', note = 'nobody'",
    );
  });
  afterAll(async () => {
    await connected?.close();
  });

  test('its fenced write is refused by PostgreSQL after another replica wrote with a newer token', async () => {
    const ttlMs = 800;
    const output = { text: '', err: '' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/runtime/fixtures/fenced-holder.ts'], {
      env: {
        ...process.env,
        RG_STORE: name,
        RG_URL: inject(factory.urlKey),
        RG_PREFIX: prefix,
        RG_KEY: 'ledger',
        RG_TTL: String(ttlMs),
        RG_DATA_URL: dataUrl,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output.err += chunk.toString()));
    try {
      const tokenA = Number((await waitForLine(child, /^holding (\d+)$/m, output))[1]);
      expect(tokenA).toBeGreaterThan(0);
      // Freeze the holder (a GC pause, a stalled VM) well past its lease.
      child.kill('SIGSTOP');
      await sleep(ttlMs + 400);

      const guards = createGuards({ client: connected.client, ...connected.options, prefix, logger: {} });
      const b = await guards.runExclusive('ledger', ttlMs, async (_signal, { fencingToken }) => {
        await withFence(data, { resource: 'account:1', token: fencingToken }, (tx: pg.PoolClient) =>
          tx.query("UPDATE fenced_accounts SET written_by = 'B' WHERE id = 1"),
        );
        const row = await data.query("UPDATE fenced_accounts SET note = 'B', fence = $1 WHERE id = 1 AND fence <= $1", [fencingToken]);
        return row.rowCount;
      });
      expect(b).toMatchObject({ ran: true, value: 1, leaseLost: false });
      expect(b.fencingToken!).toBeGreaterThan(tokenA);

      child.kill('SIGCONT');
      child.stdin.write('write\n');
      const result = JSON.parse((await waitForLine(child, /^result (.*)$/m, output))[1]!) as Record<string, unknown>;
      // PostgreSQL refused both forms of the stale write; the holder also learns it lost the lease.
      expect(result).toMatchObject({ withFence: 'FENCING_TOKEN_REJECTED', rowPattern: 0, leaseLost: true, fencingToken: tokenA });
      const { rows } = await data.query('SELECT written_by, note FROM fenced_accounts WHERE id = 1');
      expect(rows[0]).toEqual({ written_by: 'B', note: 'B' });
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
    }
  });

  test('tokens grow per key across release, expiry and instances', async () => {
    const a = createGuards({ client: connected.client, ...connected.options, prefix, logger: {} });
    const b = createGuards({ client: connected.client, ...connected.options, prefix, logger: {} });
    const tokens: number[] = [];
    for (let i = 0; i < 6; i++) {
      const guards = i % 2 === 0 ? a : b;
      const result = await guards.runExclusive('counter', 200, (_signal, { fencingToken }) => fencingToken);
      expect(result.value).toBe(result.fencingToken);
      tokens.push(result.fencingToken!);
    }
    // A lease left to expire (fn blocks past it) instead of being released, then taken again.
    const expired = await a.runExclusive('counter', 100, () => {
      const end = Date.now() + 250;
      while (Date.now() < end) {
        // blocked past the lease
      }
    });
    expect(expired.leaseLost).toBe(true);
    tokens.push(expired.fencingToken!, (await b.runExclusive('counter', 200, () => 1)).fencingToken!);
    expect(tokens.every((token) => Number.isSafeInteger(token))).toBe(true);
    expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});

describe('withFence', () => {
  test('a newer token wins, an equal token may write again, an older one is refused (pg Pool, pg Client, postgres.js)', async () => {
    const postgres = (await import('postgres')).default;
    const sql = postgres(dataUrl, { max: 2, onnotice: () => undefined });
    const client = new pg.Client({ connectionString: dataUrl });
    await client.connect();
    try {
      const resource = `res-${randomUUID()}`;
      await expect(withFence(data, { resource, token: 10 }, () => 'pool')).resolves.toBe('pool');
      await expect(withFence(client, { resource, token: 10 }, () => 'client, same token')).resolves.toBe('client, same token');
      await expect(withFence(sql, { resource, token: 11 }, () => 'postgres.js')).resolves.toBe('postgres.js');
      for (const db of [data, client, sql]) {
        const error = await withFence(db, { resource, token: 9 }, () => 'stale').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(FencingTokenRejectedError);
        expect(error).toMatchObject({ code: 'FENCING_TOKEN_REJECTED' });
      }
      // A refused fence rolls back the writes of the transaction.
      await data.query(
        "INSERT INTO fenced_accounts (id, written_by) VALUES (2, 'before') ON CONFLICT (id) DO UPDATE SET written_by = 'before'",
      );
      await expect(
        withFence(data, { resource, token: 12 }, async (tx: pg.PoolClient) => {
          await tx.query("UPDATE fenced_accounts SET written_by = 'rolled back' WHERE id = 2");
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect((await data.query('SELECT written_by FROM fenced_accounts WHERE id = 2')).rows[0]).toEqual({ written_by: 'before' });
    } finally {
      await client.end();
      await sql.end({ timeout: 1 });
    }
  });

  test('bad input is an InvalidArgumentError naming it', async () => {
    await expect(withFence(data, { resource: '', token: 1 }, () => 1)).rejects.toThrow(
      /withFence: options.resource must be a non-empty string/,
    );
    await expect(withFence(data, { resource: 'r', token: undefined }, () => 1)).rejects.toThrow(/withFence: options.token must be/);
    await expect(withFence(data, { resource: 'r', token: 1.5 }, () => 1)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(withFence(data, { resource: 'r', token: 1, tableName: 'x; drop' }, () => 1)).rejects.toThrow(/invalid fence table name/);
    expect(() => fenceTableStatements('a.b.c')).toThrow(InvalidArgumentError);
  });
});

describe('the PostgreSQL lease table', () => {
  test('a table created before fencing works without tokens until its migration runs again, then tokens start', async () => {
    const table = `legacy_leases_${randomBytes(3).toString('hex')}`;
    await data.query(`CREATE TABLE ${table} (key text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL)`);
    const warnings: string[] = [];
    const guards = createGuards({ client: data, store: 'postgres', tableName: table, logger: { warn: (m) => warnings.push(m) } });
    const before = await guards.runExclusive('job', 5000, (_signal, { fencingToken }) => fencingToken);
    expect(before).toMatchObject({ ran: true, value: undefined, leaseLost: false });
    expect(before.fencingToken).toBeUndefined();
    expect(warnings.some((w) => /no "fence" column/.test(w))).toBe(true);
    await execute(dataUrl, leaseTableStatements(table));
    const after = createGuards({ client: data, store: 'postgres', tableName: table, logger: {} });
    expect((await after.runExclusive('job', 5000, (_signal, { fencingToken }) => fencingToken)).value).toBeGreaterThan(0);
  });

  test('Redis and PostgreSQL tokens share one scale: moving a key from one store to the other keeps them growing', async () => {
    const redis = await storeFactory('ioredis').connect(inject('redisUrl'));
    try {
      const prefix = `fencing-move:${randomUUID()}:`;
      const onRedis = createGuards({ client: redis.client, prefix, logger: {} });
      const onPostgres = createGuards({ client: data, store: 'postgres', prefix, logger: {} });
      const first = (await onRedis.runExclusive('moved', 1000, () => 1)).fencingToken!;
      const second = (await onPostgres.runExclusive('moved', 1000, () => 1)).fencingToken!;
      const third = (await onRedis.runExclusive('moved', 1000, () => 1)).fencingToken!;
      expect(second).toBeGreaterThan(first);
      expect(third).toBeGreaterThan(second);
    } finally {
      await redis.close();
    }
  });
});
