// Reads of the largest stored value of a column, and the writes that allocate the next one from it
// (no-read-then-write's `nextFromHighest`): `findFirst({ orderBy: { number: 'desc' } })`,
// `aggregate({ _max: { number: true } })`, `SELECT MAX(seq)`, a helper named for it
// (`getMaxTaskNumber`), then `number: max + 1` sent in a create, insert or update.

/** Option keys of an ORM read that order its rows (Prisma `orderBy`, TypeORM / Sequelize `order`, MikroORM `orderBy`, Mongoose `sort`). */
export const ORDER_OPTION_KEYS: ReadonlySet<string> = new Set(['orderBy', 'order', 'sort']);

/** Sort directions that put the largest value first (`'desc'`, `'DESC'`, `-1`, `Prisma.SortOrder.desc`, MikroORM `QueryOrder.DESC`). */
export const DESCENDING_WORDS: ReadonlySet<string> = new Set(['desc', 'descending', '-1']);

/** Chain links that order a builder's rows by a column: Knex / TypeORM `orderBy('n', 'desc')`, Mongoose `sort({ n: -1 })`, Drizzle `orderBy(desc(t.n))`. */
export const ORDER_LINKS: ReadonlySet<string> = new Set(['orderBy', 'addOrderBy', 'sort']);

/** Drizzle's and Kysely's descending helpers: `orderBy(desc(t.n))`. */
export const DESCENDING_HELPERS: ReadonlySet<string> = new Set(['desc']);

/** Aggregate reads that return a column's largest value: Prisma `aggregate({ _max })`, Knex `.max('n')`, Sequelize `Model.max('n')`. */
export const MAX_AGGREGATE_KEY = '_max';
export const MAX_LINKS: ReadonlySet<string> = new Set(['max']);

/** SQL that selects a column's largest value, or the one row with the largest value. */
export const SQL_MAX = /\bmax\s*\(/i;
export const SQL_HIGHEST_ROW = /\border\s+by\s+[\w".]+\s+desc\b[\s\S]*\blimit\s+1\b/i;

/**
 * A project helper named for the largest stored value (`getMaxTaskNumber`, `findLastPosition`,
 * `maxSequence`, `fetchLatestVersionNumber`): its result, plus one, is the next number.
 */
export const HIGHEST_HELPER_NAME =
  /^(?:(?:get|find|fetch|load|read|select|query|compute|calc|calculate|lookup)(?:Current)?(?:Max|Maximum|Highest|Last|Latest|Greatest|Top)|max|maximum|highest|last|latest|greatest)(?:[A-Z_\d]|$)/;

/** Write methods that send a new row's or a changed row's values (the allocated number goes in one). */
export const ALLOCATING_WRITES: ReadonlySet<string> = new Set([
  'create',
  'createMany',
  'insert',
  'insertOne',
  'insertMany',
  'save',
  'update',
  'updateOne',
  'updateMany',
  'upsert',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'values',
  'set',
]);

/** SQL that writes the values it is given. */
export const SQL_ALLOCATING_WRITE = /\b(?:insert|update)\b/i;

/** Text in the function around a max-plus-one that serialises it: a transaction lock, a row lock, SERIALIZABLE isolation. */
export const ALLOCATION_SERIALISED =
  /advisory_xact_lock|\bfor\s+(?:no\s+key\s+)?update\b|\block\s+table\b|serializable|pessimistic_write|forUpdate\s*\(/i;

/** Words of a file's base name that make it demo or seed data (`task.seed.ts`, `seed-projects.ts`): filled once, by one process. */
export const SEED_FILE_WORDS: ReadonlySet<string> = new Set(['seed', 'seeds', 'seeder', 'seeders', 'seeding']);
export const isSeedFileName = (name: string): boolean =>
  name
    .toLowerCase()
    .split(/[:._-]/)
    .some((part) => SEED_FILE_WORDS.has(part));
