import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// Layout DDL a function of the same file builds and returns (`const lockerTable = (name) => `CREATE TABLE IF NOT
// EXISTS ${name} …``), sent as the SQL of a database call where DDL written in place would be reported: the
// call sends what the builder returns. A builder imported from another module, one that returns no DDL, and
// a call in a function not named for laying out the database are not reported.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const ARROW_BUILDER =
  'const lockerTable = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (id bigint PRIMARY KEY, size int NOT NULL)`;';

ruleTester.run('no-in-app-migrations (layout DDL a function of the file builds)', rule, {
  valid: [
    // the builder returns a query, not DDL
    lines(
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      'const countOf = (name: string) => `SELECT count(*) FROM ${name}`;',
      'export async function initLockers() {',
      "  await conn.query(countOf('lockers'));",
      '}',
    ),
    // a builder from another module is not followed
    lines(
      "import { Pool } from 'pg';",
      "import { lockerTable } from './locker-ddl';",
      'const conn = new Pool();',
      'export async function initLockers() {',
      "  await conn.query(lockerTable('lockers'));",
      '}',
    ),
    // not named for laying out the database: runs where it is called
    lines(
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      ARROW_BUILDER,
      'export async function rebuildLockerReport() {',
      "  await conn.query(lockerTable('locker_report'));",
      '}',
    ),
    // the builder only drops (a reset)
    lines(
      "import { Pool } from 'pg';",
      'const conn = new Pool();',
      'function dropOf(name: string) {',
      '  return `DROP TABLE IF EXISTS ${name}`;',
      '}',
      'export async function initFreshLockers() {',
      "  await conn.query(dropOf('lockers'));",
      '}',
    ),
  ],
  invalid: [
    // an arrow that returns a template, called in an initialiser
    {
      code: lines(
        "import { Pool } from 'pg';",
        'const conn = new Pool();',
        ARROW_BUILDER,
        'export async function initLockers() {',
        "  await conn.query(lockerTable('lockers'));",
        '}',
      ),
      errors: [call(5, 9)],
    },
    // a function declaration that returns a string, called as the module loads
    {
      code: lines(
        "const { Client } = require('pg');",
        'const conn = new Client(process.env.LOCKER_URL);',
        'function widthIndex(table) {',
        "  if (!table) return 'CREATE INDEX IF NOT EXISTS lockers_by_width ON lockers (width)';",
        '  return `CREATE INDEX IF NOT EXISTS ${table}_by_width ON ${table} (width)`;',
        '}',
        'conn.connect();',
        "conn.query(widthIndex('lockers'));",
      ),
      errors: [call(8, 1)],
    },
  ],
});
