import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// Layout DDL a service sends to its shared database server where it is written: at the top level
// of a module (run whenever it is loaded) or in a function named for laying out the database
// (`initWarehouse()`, `setupLedger()`), through a server driver's client (pg, mysql2, ClickHouse's
// `exec({ query })`) or a client a class named for a server builds. Each replica sends it as it starts.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const PARCELS = 'const parcelsTable = `CREATE TABLE IF NOT EXISTS parcels (id bigint PRIMARY KEY, weight float NOT NULL)`;';

ruleTester.run('no-in-app-migrations (layout DDL sent as a module loads or from an initialiser)', rule, {
  valid: [
    // an embedded file database: each host lays out its own
    lines(
      "import Database from 'better-sqlite3';",
      "const store = new Database('parcels.db');",
      "store.exec('CREATE TABLE IF NOT EXISTS parcels (id integer PRIMARY KEY)');",
    ),
    // not named for laying out the database: runs where it is called
    lines(
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      PARCELS,
      'export async function rebuildParcelReport() {',
      '  await conn.query(parcelsTable);',
      '}',
    ),
    // an initialiser that only drops (a reset)
    lines(
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      'export async function initFreshParcels() {',
      "  await conn.query('DROP TABLE IF EXISTS parcels');",
      '}',
    ),
    // no database server in view: a client from a project module named for nothing
    lines(
      "import { LocalStore } from './local-store';",
      'const store = new LocalStore();',
      'export async function initParcels() {',
      '  await store.query(`CREATE TABLE IF NOT EXISTS parcels (id integer PRIMARY KEY)`);',
      '}',
    ),
    // a migrator's own bookkeeping table: its runner is reported where it is called
    lines(
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      'async function ensureMigrationsLedger() {',
      "  await conn.query('CREATE TABLE IF NOT EXISTS schema_steps (id serial PRIMARY KEY)');",
      '}',
    ),
    // the driver imported for its types alone: a library laying out what its caller's connection holds
    lines(
      "import type { PoolClient } from 'pg';",
      'export async function setupParcels(conn: PoolClient) {',
      "  await conn.query('CREATE TABLE IF NOT EXISTS parcels (id serial PRIMARY KEY)');",
      '}',
    ),
    // not DDL
    lines(
      "import { createClient } from '@clickhouse/client';",
      'const warehouse = createClient({});',
      'export const setupCounters = async () => {',
      "  await warehouse.exec({ query: 'SELECT count() FROM parcels' });",
      '};',
    ),
    // the DDL written in a helper the module-level code only defines
    lines(
      "const mysql = require('mysql2/promise');",
      'const conn = mysql.createPool(process.env.LEDGER_URL);',
      'conn.on("connection", () => {',
      "  conn.query('CREATE TABLE IF NOT EXISTS ledger_rows (id int PRIMARY KEY)');",
      '});',
    ),
    // a one-shot script: it ends its client when the DDL is sent
    {
      code: lines(
        "const { Client } = require('pg');",
        'const conn = new Client(process.env.LEDGER_URL);',
        'conn.connect();',
        "conn.query('CREATE TABLE IF NOT EXISTS ledger_rows (id int PRIMARY KEY)').then(() => conn.end());",
      ),
      filename: 'scripts/create-ledger.js',
    },
    // only a request sends it
    lines(
      "import express from 'express';",
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      'const app = express();',
      'async function ensureParcels() {',
      '  await conn.query(`CREATE TABLE IF NOT EXISTS parcels (id bigint PRIMARY KEY)`);',
      '}',
      "app.post('/admin/parcels', async (req, res) => {",
      '  await ensureParcels();',
      '  res.end();',
      '});',
    ),
  ],
  invalid: [
    // module level, through pg (CommonJS)
    {
      code: lines(
        "const { Client } = require('pg');",
        'const conn = new Client(process.env.LEDGER_URL);',
        'conn.connect();',
        "conn.query('CREATE TABLE IF NOT EXISTS ledger_rows (id int PRIMARY KEY, amount int NOT NULL)');",
      ),
      errors: [call(4, 1)],
    },
    // ClickHouse: an exported initialiser sends each statement through `exec({ query })`
    {
      code: lines(
        "import { createClient } from '@clickhouse/client';",
        'export const warehouse = createClient({ url: process.env.WAREHOUSE_URL });',
        'export const initWarehouse = async () => {',
        '  await warehouse.exec({',
        '    query: `CREATE TABLE IF NOT EXISTS parcels (id UInt64, at DateTime) ENGINE = MergeTree() ORDER BY id`,',
        '  });',
        "  await warehouse.command({ query: 'ALTER TABLE parcels ADD COLUMN IF NOT EXISTS weight Float32' });",
        '  await warehouse.exec({',
        '    query: `CREATE MATERIALIZED VIEW IF NOT EXISTS parcels_daily TO parcels_daily_target AS SELECT id FROM parcels`,',
        '  });',
        '};',
      ),
      errors: [call(4, 9), call(7, 9), call(8, 9)],
    },
    // a client a class named for the server builds; the statement held in a `const`
    {
      code: lines(
        "import { PostgresGateway } from './postgres-gateway.js';",
        'const store = new PostgresGateway();',
        PARCELS,
        'export async function setupLedger() {',
        '  await store.query(parcelsTable);',
        '  await store.query(`CREATE INDEX IF NOT EXISTS parcels_weight ON parcels (weight)`);',
        '}',
      ),
      errors: [call(5, 9), call(6, 9)],
    },
  ],
});
