// The advisory lock key a service's migrate entrypoint holds. PostgreSQL advisory locks take one
// signed 64-bit key; a string is hashed so that every pod of a service computes the same key.
import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../errors.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The signed int64 `pg_advisory_lock` key for `key`:
 * - a bigint (or safe integer) is used as is and must fit in a signed 64-bit integer;
 * - a string is hashed: the first 8 bytes of SHA-256 of its UTF-8 bytes, read big-endian as a
 *   signed int64. In psql the same key is
 *   `select ('x' || left(encode(sha256(convert_to('<key>', 'UTF8')), 'hex'), 16))::bit(64)::bigint`.
 */
export function migrationLockKey(key: bigint | number | string): bigint {
  if (typeof key === 'string') {
    if (key.length === 0) throw new InvalidArgumentError('runMigrations: lockKey must not be an empty string');
    return createHash('sha256').update(key, 'utf8').digest().readBigInt64BE(0);
  }
  if (typeof key === 'number') {
    if (!Number.isSafeInteger(key))
      throw new InvalidArgumentError(`runMigrations: lockKey ${key} is not a safe integer; pass a bigint or a string`);
    return BigInt(key);
  }
  if (typeof key === 'bigint') {
    if (key < INT64_MIN || key > INT64_MAX)
      throw new InvalidArgumentError(`runMigrations: lockKey ${key} does not fit in a signed 64-bit integer`);
    return key;
  }
  throw new InvalidArgumentError(`runMigrations: lockKey must be a bigint or a string, got ${typeof key}`);
}
