// Functions that make a new random (or time-based) id at every call: an id made at a publish is a
// different id when the publish is retried, so a message id made by one dedupes nothing. UUID's
// name-based `v3`/`v5` give the same id for the same input and are left out.

export interface RandomIdMaker {
  /** Module specifiers; `null` for a global (`crypto.randomUUID()`). */
  modules: readonly (string | null)[];
  /** Export path inside the module. */
  path: readonly string[];
  kind: 'call' | 'construct';
}

export const RANDOM_ID_MAKERS: readonly RandomIdMaker[] = [
  ...['v1', 'v4', 'v6', 'v7'].map((name) => ({ modules: ['uuid'], path: [name], kind: 'call' as const })),
  { modules: ['uuidv4'], path: ['uuid'], kind: 'call' },
  ...['randomUUID', 'randomBytes'].map((name) => ({ modules: ['crypto', 'node:crypto'], path: [name], kind: 'call' as const })),
  { modules: [null], path: ['crypto', 'randomUUID'], kind: 'call' },
  { modules: [null], path: ['Date', 'now'], kind: 'call' },
  // `new Date()`: the clock at the call (a `Date` handed a value is that value's time).
  { modules: [null], path: ['Date'], kind: 'construct' },
  { modules: [null], path: ['Math', 'random'], kind: 'call' },
  { modules: ['nanoid'], path: ['nanoid'], kind: 'call' },
  { modules: ['ulid', 'ulidx'], path: ['ulid'], kind: 'call' },
  { modules: ['cuid'], path: [], kind: 'call' },
  { modules: ['@paralleldrive/cuid2'], path: ['createId'], kind: 'call' },
  { modules: ['short-uuid'], path: ['generate'], kind: 'call' },
  { modules: ['mongodb', 'bson'], path: ['ObjectId'], kind: 'construct' },
];
