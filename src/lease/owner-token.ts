import { randomFillSync } from 'node:crypto';

const TOKEN_BYTES = 16;
// One CSPRNG call per 256 tokens: randomBytes per claim costs more than the claim's own CPU work.
const pool = Buffer.alloc(TOKEN_BYTES * 256);
let offset = pool.length;

/** A fresh owner token: 128 random bits, so no two holders (or restarts) ever share one. */
export function newOwnerToken(): string {
  if (offset + TOKEN_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const token = pool.toString('hex', offset, offset + TOKEN_BYTES);
  offset += TOKEN_BYTES;
  return token;
}
