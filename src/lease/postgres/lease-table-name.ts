import { InvalidArgumentError } from '../../errors.js';

/** The table the PostgreSQL lease store uses when none is configured. */
export const DEFAULT_LEASE_TABLE = 'replica_guard_leases';

/** A validated lease table name, quoted and ready to splice into SQL. */
export interface LeaseTableName {
  /** As the user wrote it (`replica_guard_leases`, `ops.leases`), for messages. */
  readonly display: string;
  /** `"ops"."leases"`: every part quoted, so no name is ever read as SQL. */
  readonly qualified: string;
  /** The quoted name of the index on `expires_at` (an index lives in its table's schema). */
  readonly expiresIndex: string;
}

// Plain identifiers only: no quotes, dots or spaces inside a part, so quoting is exact and the
// name in an error message is the name in the catalog. 63 bytes is PostgreSQL's NAMEDATALEN - 1.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const INDEX_SUFFIX = '_expires_at_idx';

/** Parses `table` or `schema.table`; anything else is an `InvalidArgumentError` naming the input. */
export function leaseTableName(tableName: string = DEFAULT_LEASE_TABLE): LeaseTableName {
  if (typeof tableName !== 'string') {
    throw new InvalidArgumentError(
      `lease table name must be a string like "${DEFAULT_LEASE_TABLE}" or "schema.table", got ${typeof tableName}`,
    );
  }
  const parts = tableName.split('.');
  const bad = parts.length > 2 ? tableName : parts.find((part) => !IDENTIFIER.test(part));
  if (bad !== undefined) {
    throw new InvalidArgumentError(
      `invalid lease table name "${tableName}": expected "table" or "schema.table", each part a plain identifier (letters, digits, _; not starting with a digit; at most 63 characters)`,
    );
  }
  const table = parts[parts.length - 1] as string;
  // Truncate the table part so the index name stays within 63 characters instead of being
  // silently truncated by the server (which would make the down migration miss it).
  const indexName = `${table.slice(0, 63 - INDEX_SUFFIX.length)}${INDEX_SUFFIX}`;
  return {
    display: tableName,
    qualified: parts.map(quoteIdentifier).join('.'),
    expiresIndex: quoteIdentifier(indexName),
  };
}

function quoteIdentifier(identifier: string): string {
  return `"${identifier}"`;
}
