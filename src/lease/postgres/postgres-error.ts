import { BackendUnavailableError, ReplicaGuardError } from '../../errors.js';
import type { LeaseTableName } from './lease-table-name.js';

// SQLSTATEs that mean "the lease table is not there": undefined_table, invalid_schema_name.
const TABLE_MISSING = new Set(['42P01', '3F000']);

/** Turns a driver error into the ReplicaGuardError the guards log (the driver's as `cause`). */
export function postgresLeaseError(error: unknown, operation: string, key: string, table: LeaseTableName): ReplicaGuardError {
  if (error instanceof ReplicaGuardError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TABLE_MISSING.has(code)) {
    return new ReplicaGuardError(
      'LEASE_TABLE_MISSING',
      `PostgreSQL lease table ${table.display} does not exist (${code}). Create it from your migrate entrypoint: ` +
        `run leaseTableDDL(${JSON.stringify(table.display)}) from 'replica-guard', or one of its ready migrations ` +
        `(leaseTableKnexMigration, leaseTableNodePgMigration, ...); the store never creates it at run time.`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new BackendUnavailableError(`PostgreSQL lease store: ${operation} of "${key}" failed: ${message}`, { cause: error });
}
