// How a job claims one item before its side effect: it inserts a marker row that a unique key
// lets exist once (`sent_reminders (task_id, kind)`), in a form that answers "nothing inserted"
// instead of failing, or catches the unique violation. At two replicas only the one whose insert
// went in sends. Read by analysis/scheduled-work/item-claim.ts; the unique violation also by
// require-atomic-claim's find-then-create claim.

/** Methods of an insert chain that make a conflicting insert a no-op (`onConflictDoNothing()`, TypeORM `orIgnore()`, knex `ignore()`). */
export const INSERT_IGNORE_METHODS: readonly string[] = ['onConflictDoNothing', 'orIgnore', 'ignore', 'doNothing'];

/** An insert option that skips conflicting rows (Prisma `createMany({ data, skipDuplicates: true })`). */
export const SKIP_DUPLICATES_OPTION = 'skipDuplicates';

/** SQL text of an insert that skips a conflicting row: `ON CONFLICT (…) DO NOTHING`, `INSERT IGNORE`, `INSERT OR IGNORE`. */
export const INSERT_IGNORE_SQL = /\bon\s+conflict\b[^;]*\bdo\s+nothing\b|\binsert\s+(or\s+)?ignore\b/i;

/**
 * Methods of a create chain that let the database settle a duplicate: the inserts that ignore one,
 * and those that turn it into an update (`upsert`, `onConflict(…).merge()`, Drizzle's
 * `onDuplicateKeyUpdate`). Read by require-atomic-claim's find-then-create claim.
 */
export const CONFLICT_SETTLING_METHODS: readonly string[] = [
  ...INSERT_IGNORE_METHODS,
  'upsert',
  'onConflict',
  'onDuplicateKeyUpdate',
  'merge',
];

/** Create options that let the database settle a duplicate (Prisma `skipDuplicates`, Sequelize `ignoreDuplicates` / `updateOnDuplicate`, TypeORM `conflictPaths`). */
export const CONFLICT_SETTLING_OPTIONS: readonly string[] = [
  SKIP_DUPLICATES_OPTION,
  'ignoreDuplicates',
  'ignore',
  'onConflict',
  'updateOnDuplicate',
  'conflictPaths',
];

/** SQL text of an insert whose duplicate the database settles: any `ON CONFLICT`, `INSERT [OR] IGNORE`, `ON DUPLICATE KEY`. */
export const CONFLICT_SETTLING_SQL = /\bon\s+conflict\b|\binsert\s+(?:or\s+)?ignore\b|\bon\s+duplicate\s+key\b/i;

/**
 * A unique violation named in a `catch` (the item claim's, and the find-then-create claim's of
 * require-atomic-claim): Postgres 23505, Prisma P2002, MySQL ER_DUP_ENTRY / ER_DUP_KEY, SQLite,
 * MongoDB 11000, or the words ORMs name it with (`UniqueConstraintError`, `DuplicateKeyError`,
 * `ConflictException`).
 */
export const UNIQUE_VIOLATION_TEXT = /\b23505\b|\bP2002\b|\bER_DUP_|SQLITE_CONSTRAINT|\b11000\b|unique|duplicate|conflict/i;

/** Verbs of a call that inserts a marker row (`insert`, `create`, `insertOne`, `createMany`). */
export const MARKER_INSERT_VERBS: readonly string[] = ['insert', 'create', 'save'];

/**
 * Fields a write's answer counts its rows in (TypeORM `affected`, node-postgres `rowCount`, mysql
 * `affectedRows`, Prisma `count`, MongoDB `modifiedCount`, Kysely `numUpdatedRows`): a function
 * returning a test of one after a conditional update answers whether it claimed the row.
 */
export const AFFECTED_COUNT_FIELDS: readonly string[] = [
  'affected',
  'rowCount',
  'affectedRows',
  'rowsAffected',
  'changedRows',
  'count',
  'modifiedCount',
  'nModified',
  'numUpdatedRows',
  'changes',
];

/** An update's filter that re-checks more than the row's id: a second condition, or a column still unset. */
export const CONDITIONAL_FILTER_TEXT = /\bandWhere\b|\bAND\b|\bIS\s+NULL\b/i;

/**
 * MongoDB calls that take one document atomically: `findOneAndDelete(filter)` removes what it
 * returns, `findOneAndUpdate(filter, update)` changes it — a claim when the update sets a field the
 * filter tests (`{ state: 'queued' }` → `{ $set: { state: 'taken' } }`). Two pollers never get the
 * same document. Read by no-unguarded-schedule's poll-loop claim (rules/no-unguarded-schedule/atomic-take.ts).
 */
export const ATOMIC_TAKE_DELETES: readonly string[] = ['findOneAndDelete', 'findOneAndRemove', 'findAndRemove'];
export const ATOMIC_TAKE_UPDATES: readonly string[] = ['findOneAndUpdate', 'findAndModify'];
/** The update operator whose fields the claim sets (`$set`), beside a plain replacement object (Mongoose's shorthand). */
export const SET_OPERATOR = '$set';
