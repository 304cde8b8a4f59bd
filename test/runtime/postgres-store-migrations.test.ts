// The lease table's ready migrations, each run by the real migrator against its own database:
// `up` creates a table the store works with, `down` removes it (and the store then says
// LEASE_TABLE_MISSING). The store itself never creates the table.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import {
  createPostgresLeaseStore,
  leaseTableDDL,
  leaseTableDrizzleSql,
  leaseTableKnexMigration,
  leaseTableKyselyMigration,
  leaseTablePrismaModel,
  leaseTablePrismaSql,
  leaseTableTypeOrmMigration,
  leaseTableUmzugMigration,
} from '../../src/lease/postgres-store.js';
import { execute, withDatabase } from './fixtures/postgres-store/lease-database.js';

const run = randomBytes(3).toString('hex');
const databases: string[] = [];
const pools: pg.Pool[] = [];

async function freshDatabase(label: string): Promise<{ url: string; pool: pg.Pool }> {
  const name = `rg_pg_leases_${label}_${run}`;
  await execute(inject('postgresUrl'), [`CREATE DATABASE ${name}`]);
  databases.push(name);
  const url = withDatabase(inject('postgresUrl'), name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return { url, pool };
}

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  for (const name of databases) await execute(inject('postgresUrl'), [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
});

async function columns(pool: pg.Pool, table = 'replica_guard_leases'): Promise<string[]> {
  const { rows } = await pool.query<{ column_name: string; data_type: string; is_nullable: string }>(
    'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
    [table],
  );
  return rows.map((r) => `${r.column_name} ${r.data_type} ${r.is_nullable === 'NO' ? 'not null' : 'null'}`);
}

const EXPECTED_COLUMNS = [
  'key text not null',
  'owner text not null',
  'expires_at timestamp with time zone not null',
  'fence bigint not null',
];

/** After `up`: the table has the lease columns and the store claims through it. */
async function expectUsableTable(pool: pg.Pool): Promise<void> {
  expect(await columns(pool)).toEqual(EXPECTED_COLUMNS);
  const store = createPostgresLeaseStore(pool);
  expect(await store.acquire('migrated', 'owner-a', 60_000)).toBe(true);
  expect(await store.acquire('migrated', 'owner-b', 60_000)).toBe(false);
}

/** After `down`: gone, and the store names the missing table. */
async function expectTableGone(pool: pg.Pool): Promise<void> {
  expect(await columns(pool)).toEqual([]);
  await expect(createPostgresLeaseStore(pool).acquire('migrated', 'owner-a', 60_000)).rejects.toMatchObject({
    code: 'LEASE_TABLE_MISSING',
  });
}

describe('ready migrations, run by each migrator', () => {
  test('knex (migrate.latest / migrate.rollback)', async () => {
    const { url, pool } = await freshDatabase('knex');
    const knex = (await import('knex')).default({ client: 'pg', connection: url });
    const migrationSource = {
      getMigrations: async () => ['20251203000000_replica_guard_leases'],
      getMigrationName: (name: string) => name,
      getMigration: async () => leaseTableKnexMigration(),
    };
    try {
      await knex.migrate.latest({ migrationSource });
      await expectUsableTable(pool);
      await knex.migrate.rollback({ migrationSource });
      await expectTableGone(pool);
    } finally {
      await knex.destroy();
    }
  });

  test('TypeORM (DataSource.runMigrations / undoLastMigration)', async () => {
    const { url, pool } = await freshDatabase('typeorm');
    await import('reflect-metadata');
    const { DataSource } = await import('typeorm');
    const migration = leaseTableTypeOrmMigration({ timestamp: 1764720000000 });
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      synchronize: false,
      migrationsRun: false,
      logging: false,
      migrations: [migration],
    });
    await dataSource.initialize();
    try {
      const applied = await dataSource.runMigrations();
      expect(applied.map((m) => m.name)).toEqual(['ReplicaGuardLeases1764720000000']);
      await expectUsableTable(pool);
      await dataSource.undoLastMigration();
      await expectTableGone(pool);
    } finally {
      await dataSource.destroy();
    }
  });

  test('Kysely (Migrator.migrateToLatest / migrateDown)', async () => {
    const { url, pool } = await freshDatabase('kysely');
    const { Kysely, Migrator, PostgresDialect, sql } = await import('kysely');
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => ({ '0001_replica_guard_leases': leaseTableKyselyMigration(sql) }) },
    });
    try {
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect(up.results?.map((r) => [r.migrationName, r.status])).toEqual([['0001_replica_guard_leases', 'Success']]);
      await expectUsableTable(pool);
      expect((await migrator.migrateDown()).error).toBeUndefined();
      await expectTableGone(pool);
    } finally {
      await db.destroy();
    }
  });

  test('Umzug (up / down), with a pg Pool as its context', async () => {
    const { pool } = await freshDatabase('umzug');
    const { Umzug, memoryStorage } = await import('umzug');
    const umzug = new Umzug({ migrations: [leaseTableUmzugMigration()], context: pool, storage: memoryStorage(), logger: undefined });
    expect((await umzug.up()).map((m) => m.name)).toEqual(['replica-guard-leases']);
    await expectUsableTable(pool);
    await umzug.down();
    await expectTableGone(pool);
  });

  test('Drizzle (migrate() over a custom SQL migration)', async () => {
    const { url, pool } = await freshDatabase('drizzle');
    const folder = mkdtempSync(join(tmpdir(), 'replica-guard-drizzle-'));
    try {
      mkdirSync(join(folder, 'meta'));
      writeFileSync(join(folder, '0000_replica_guard_leases.sql'), leaseTableDrizzleSql());
      writeFileSync(
        join(folder, 'meta', '_journal.json'),
        JSON.stringify({
          version: '7',
          dialect: 'postgresql',
          entries: [{ idx: 0, version: '7', when: 1764720000000, tag: '0000_replica_guard_leases', breakpoints: true }],
        }),
      );
      const { drizzle } = await import('drizzle-orm/node-postgres');
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      const client = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await migrate(drizzle(client), { migrationsFolder: folder });
      } finally {
        await client.end();
      }
      await expectUsableTable(pool);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('node-pg-migrate (its runner, loading a TypeScript migration file)', async () => {
    const { url, pool } = await freshDatabase('node_pg_migrate');
    // A child process, as the migrate entrypoint would be: node-pg-migrate import()s each file,
    // and tsx lets it load the .ts migration that calls leaseTableNodePgMigration().
    const script = 'test/runtime/fixtures/postgres-store/node-pg-migrate-run.ts';
    for (const direction of ['up', 'down'] as const) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script, direction], {
        env: { ...process.env, DATABASE_URL: url },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(child.status, child.stderr).toBe(0);
      if (direction === 'up') await expectUsableTable(pool);
      else await expectTableGone(pool);
    }
  });

  test('Prisma: migration.sql applied as prisma migrate deploy would (one script), and a matching model', async () => {
    const { pool } = await freshDatabase('prisma');
    // Simple query protocol (no parameters): the whole file in one go, like `migrate deploy`.
    await pool.query(leaseTablePrismaSql());
    await expectUsableTable(pool);
    expect(leaseTablePrismaSql()).toBe(leaseTableDDL());
    const model = leaseTablePrismaModel();
    expect(model).toContain('@@map("replica_guard_leases")');
    expect(model).toContain('expiresAt DateTime @map("expires_at") @db.Timestamptz(6)');
    expect(model).toContain('@@index([expiresAt])');
    expect(leaseTablePrismaModel('ops.leases')).toContain('@@schema("ops")');
  });

  test('every migration is idempotent on a table the DDL already created', async () => {
    const { pool } = await freshDatabase('idempotent');
    await pool.query(leaseTableDDL());
    await pool.query(leaseTableDDL());
    await expectUsableTable(pool);
  });
});
