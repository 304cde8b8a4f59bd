import { randomBytes } from 'node:crypto';

// 96 random bits per process (per module instance), drawn once, plus a counter: no two holders —
// in this process, another one, or after a restart — share a token, and a claim pays one decimal
// number formatting (cheaper than base 36) and one concatenation instead of a CSPRNG read and a
// hex encoding. Owner tokens are
// identities for compare-and-extend/delete, not secrets: anyone who can read the lease key can
// write it anyway.
const processNonce = randomBytes(12).toString('base64url');
let counter = 0;

/** A fresh owner token, unique across processes and restarts (`<16-char process nonce><decimal counter>`). */
export function newOwnerToken(): string {
  counter += 1;
  return processNonce + counter;
}
