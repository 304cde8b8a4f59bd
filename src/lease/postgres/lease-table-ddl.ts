// The lease table's schema. It is created by the service's migrate entrypoint (see
// ./migrations.ts), never by the store at run time: the runtime role need not own DDL, and a
// missing table is a clear LEASE_TABLE_MISSING error instead of a surprise CREATE in production.
import { leaseTableName } from './lease-table-name.js';

/**
 * The statements that create the lease table, one per array element (some drivers and
 * migrators run only one statement per call). Idempotent (`IF NOT EXISTS`).
 */
export function leaseTableStatements(tableName?: string): string[] {
  const table = leaseTableName(tableName);
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${table.qualified} (`,
      '  key text PRIMARY KEY,',
      '  owner text NOT NULL,',
      '  expires_at timestamptz NOT NULL,',
      '  fence bigint NOT NULL DEFAULT 0',
      ')',
    ].join('\n'),
    // Tables created before fencing tokens get the column (metadata only: no rewrite, no long lock).
    `ALTER TABLE ${table.qualified} ADD COLUMN IF NOT EXISTS fence bigint NOT NULL DEFAULT 0`,
    // Lets every acquire find a few expired rows to delete without scanning live ones.
    `CREATE INDEX IF NOT EXISTS ${table.expiresIndex} ON ${table.qualified} (expires_at)`,
  ];
}

/** The statements that drop the lease table (for a migration's `down`). */
export function dropLeaseTableStatements(tableName?: string): string[] {
  return [`DROP TABLE IF EXISTS ${leaseTableName(tableName).qualified}`];
}

/** The lease table's DDL as one SQL script (statements ended by `;`), for SQL-file migrators. */
export function leaseTableDDL(tableName?: string): string {
  return toScript(leaseTableStatements(tableName));
}

export function toScript(statements: readonly string[], separator = '\n\n'): string {
  return `${statements.map((statement) => `${statement};`).join(separator)}\n`;
}
