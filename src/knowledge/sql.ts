// What replica-guard knows about SQL: which functions take session advisory locks, which calls
// and tags send SQL, what a pending-row read looks like. Plain data and pure functions.
import {
  functionCalls,
  hasWordSequence,
  identifierName,
  indexOfTopLevelWord,
  isPunctuation,
  isWord,
  splitStatements,
  tokenizeSql,
  type SqlToken,
} from './sql-tokens.js';

export interface AdvisoryLockFunction {
  /** `lock` takes (blocking), `try` takes if free, `unlock` releases. */
  kind: 'lock' | 'try' | 'unlock';
  shared: boolean;
  /** The transaction-scoped equivalent, where one exists (unlocks have none: commit releases). */
  xact: string | undefined;
}

/** Session-level advisory lock functions: held by the server connection until unlocked. */
export const SESSION_ADVISORY_LOCK_FUNCTIONS: Readonly<Record<string, AdvisoryLockFunction>> = {
  pg_advisory_lock: { kind: 'lock', shared: false, xact: 'pg_advisory_xact_lock' },
  pg_advisory_lock_shared: { kind: 'lock', shared: true, xact: 'pg_advisory_xact_lock_shared' },
  pg_try_advisory_lock: { kind: 'try', shared: false, xact: 'pg_try_advisory_xact_lock' },
  pg_try_advisory_lock_shared: { kind: 'try', shared: true, xact: 'pg_try_advisory_xact_lock_shared' },
  pg_advisory_unlock: { kind: 'unlock', shared: false, xact: undefined },
  pg_advisory_unlock_shared: { kind: 'unlock', shared: true, xact: undefined },
  pg_advisory_unlock_all: { kind: 'unlock', shared: false, xact: undefined },
};

/** Transaction-level forms: released at COMMIT/ROLLBACK, safe through a transaction pooler. */
export const XACT_ADVISORY_LOCK_FUNCTIONS: readonly string[] = [
  'pg_advisory_xact_lock',
  'pg_advisory_xact_lock_shared',
  'pg_try_advisory_xact_lock',
  'pg_try_advisory_xact_lock_shared',
];

export function sessionAdvisoryLockFunction(name: string): AdvisoryLockFunction | undefined {
  return Object.hasOwn(SESSION_ADVISORY_LOCK_FUNCTIONS, name) ? SESSION_ADVISORY_LOCK_FUNCTIONS[name] : undefined;
}

/**
 * Methods whose first argument is the SQL they send: pg / pg-pool / TypeORM / Sequelize / mysql
 * `query`, knex `raw`, Prisma `$queryRaw…`/`$executeRaw…`, postgres.js `unsafe`, Drizzle and
 * mysql2 `execute`, pg-promise's result methods.
 */
export const SQL_METHODS: ReadonlySet<string> = new Set([
  'query',
  'raw',
  '$queryRaw',
  '$executeRaw',
  '$queryRawUnsafe',
  '$executeRawUnsafe',
  'unsafe',
  'execute',
  'none',
  'one',
  'oneOrNone',
  'many',
  'manyOrNone',
  'any',
  'result',
  'multi',
]);

/** Template tags whose template is SQL (`sql`…``, `Prisma.sql`, `prisma.$queryRaw`…``…). */
export const SQL_TAGS: ReadonlySet<string> = new Set(['sql', 'SQL', '$queryRaw', '$executeRaw', 'raw']);

/** Modules whose default export, called, returns a SQL tag function (postgres.js). */
export const SQL_TAG_FACTORY_MODULES: readonly string[] = ['postgres'];

/** Query config properties holding the SQL (`pg`'s `{ text }`, mysql / knex `{ sql }`). */
export const SQL_CONFIG_PROPERTIES: readonly string[] = ['text', 'sql'];

/** First words of a SQL statement; text that starts otherwise is not treated as SQL. */
export const STATEMENT_KEYWORDS: ReadonlySet<string> = new Set(
  (
    'select with insert update delete merge values table begin start commit end rollback abort savepoint release ' +
    'do call set reset lock create alter drop truncate grant revoke copy explain analyze vacuum notify listen unlisten ' +
    'prepare execute deallocate declare fetch close move show discard refresh comment cluster reindex'
  ).split(' '),
);

export type StatementKind = 'select' | 'insert' | 'update' | 'delete' | 'begin' | 'commit' | 'rollback' | 'other';

export interface SqlStatement {
  kind: StatementKind;
  tokens: SqlToken[];
}

export interface ParsedSql {
  tokens: SqlToken[];
  statements: SqlStatement[];
}

const parseCache = new Map<string, ParsedSql | null>();
const PARSE_CACHE_LIMIT = 2000;

/**
 * Tokens and statements of `text` when it reads as SQL (lexes, and starts with a statement
 * keyword or `(`); `undefined` otherwise. Cached per string: rules ask about the same text often.
 */
export function parseSql(text: string): ParsedSql | undefined {
  const hit = parseCache.get(text);
  if (hit !== undefined) return hit ?? undefined;
  const parsed = parseUncached(text);
  if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
  parseCache.set(text, parsed ?? null);
  return parsed;
}

function parseUncached(text: string): ParsedSql | undefined {
  const tokens = tokenizeSql(text);
  const first = tokens?.[0];
  if (!tokens || !first) return undefined;
  if (!(isPunctuation(first, '(') || (first.kind === 'word' && STATEMENT_KEYWORDS.has(first.value)))) return undefined;
  return { tokens, statements: splitStatements(tokens).map((t) => ({ kind: statementKind(t), tokens: t })) };
}

/**
 * SQL that is an expression rather than a statement: one function call, with an optional alias —
 * the select-list column a query builder is handed (`sql\`pg_try_advisory_lock(${key})\``,
 * `knex.raw('pg_try_advisory_lock(?) as held')`). Prose that starts with a call
 * (`'pg_advisory_lock(1) acquired'`) is not. Its tokens form one statement of kind `other`.
 */
export function parseSqlExpression(text: string): ParsedSql | undefined {
  const tokens = tokenizeSql(text);
  if (!tokens || tokens[0]?.kind !== 'word' || !isPunctuation(tokens[1], '(')) return undefined;
  let depth = 0;
  let end = 1;
  for (; end < tokens.length; end++) {
    if (isPunctuation(tokens[end], '(')) depth++;
    else if (isPunctuation(tokens[end], ')') && --depth === 0) break;
  }
  const rest = tokens.slice(end + 1);
  const alias =
    rest.length === 0 ||
    (rest.length === 2 && isWord(rest[0], 'as') && (rest[1]?.kind === 'word' || rest[1]?.kind === 'quoted-identifier'));
  return depth === 0 && alias ? { tokens, statements: [{ kind: 'other', tokens }] } : undefined;
}

/** What a statement does, from its leading words (`WITH … UPDATE` counts as an update). */
export function statementKind(tokens: readonly SqlToken[]): StatementKind {
  let i = 0;
  while (isPunctuation(tokens[i], '(')) i++;
  const first = tokens[i];
  if (!first || first.kind !== 'word') return 'other';
  switch (first.value) {
    case 'select':
    case 'values':
    case 'table':
      return 'select';
    case 'insert':
    case 'update':
    case 'delete':
      return first.value;
    case 'begin':
      return 'begin';
    case 'start':
      return isWord(tokens[i + 1], 'transaction') ? 'begin' : 'other';
    case 'commit':
    case 'end':
      return 'commit';
    case 'rollback':
    case 'abort':
      return isWord(tokens[i + 1], 'to') ? 'other' : 'rollback';
    case 'with': {
      // The main statement is the first top-level data word after the CTE list.
      for (const word of ['insert', 'update', 'delete', 'select']) {
        if (indexOfTopLevelWord(tokens, word, i + 1) !== -1) return word as StatementKind;
      }
      return 'other';
    }
    default:
      return 'other';
  }
}

/** Session advisory lock calls in the SQL, with the token of each function name. */
export function sessionAdvisoryLockCalls(parsed: ParsedSql): Array<{ name: string; fn: AdvisoryLockFunction; token: SqlToken }> {
  const found: Array<{ name: string; fn: AdvisoryLockFunction; token: SqlToken }> = [];
  for (const call of functionCalls(parsed.tokens)) {
    const fn = sessionAdvisoryLockFunction(call.name);
    if (fn) found.push({ name: call.name, fn, token: call.nameToken });
  }
  return found;
}

/**
 * Columns whose value says where a row is in its life (a worker's "pending" filter). A flag or
 * stamp named for what was done to the row (`email_sent`, `trialEndEmailSent`, `reminder_sent_at`,
 * `last_notified_at`, `webhook_delivered`) says it too, and so does a state kept as a lookup
 * table's key (`status_id`, `orderStateId`).
 */
export const STATUS_LIKE_COLUMN =
  /^(?:status|state|stage|phase|(?:[a-z0-9_]*_)?(?:status|state)_id|[a-z0-9_]*_(?:status|state)|[a-z0-9_]*_(?:processed|published|sent|notified|handled|dispatched|delivered)(?:_?(?:at|on))?|notified(?:_?at)?|(?:processed|published|sent|handled|dispatched|delivered|completed|claimed|locked|picked|consumed|finished|started|done)(?:_?(?:at|by|until|on))?|done|pending|is_?(?:processed|published|sent|done|pending))$/i;

/** Table names that are work queues by name (an outbox, a jobs table…). */
export const QUEUE_LIKE_TABLE = /(?:outbox|inbox|queue|(?:^|_)jobs?$|(?:^|_)tasks?$|pending|(?:^|_)work_?items?$)/i;

export function isStatusLikeColumn(name: string): boolean {
  return STATUS_LIKE_COLUMN.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

export function isQueueLikeTable(name: string): boolean {
  return QUEUE_LIKE_TABLE.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

/**
 * Columns that version a row for optimistic concurrency (`version`, Mongoose's `__v`, `etag`,
 * `updated_at`): a write whose filter repeats the value read is a compare-and-set, and loses no update.
 */
export const VERSION_COLUMN = /^(?:version|__v|_version|lock_?version|revision|etag|updated_?at)$/i;

/** Timestamp columns (`nextRunAt`, `locked_at`): a claim moves one, so a filter repeating the value read also compares and sets. */
export const TIMESTAMP_COLUMN = /^[A-Za-z0-9_]*(?:_at|[a-z0-9]At)$/;

/** The lock clause of a SELECT (`FOR UPDATE`, `FOR NO KEY UPDATE`, `… SKIP LOCKED`). */
export function hasRowLockClause(tokens: readonly SqlToken[]): boolean {
  return (
    hasWordSequence(tokens, ['for', 'update']) ||
    hasWordSequence(tokens, ['for', 'no', 'key', 'update']) ||
    hasWordSequence(tokens, ['skip', 'locked'])
  );
}

/** Table names after FROM / JOIN / UPDATE / INTO (schema dropped). */
export function tableNames(tokens: readonly SqlToken[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    if (!isWord(tokens[i], 'from', 'join', 'update', 'into')) continue;
    let j = i + 1;
    if (isWord(tokens[j], 'only')) j++;
    let name = identifierName(tokens[j]);
    while (name !== undefined && isPunctuation(tokens[j + 1], '.') && identifierName(tokens[j + 2]) !== undefined) {
      j += 2;
      name = identifierName(tokens[j]);
    }
    if (name !== undefined && !isPunctuation(tokens[j + 1], '(')) names.push(name);
  }
  return names;
}

/** The tokens of the top-level WHERE clause (up to GROUP/ORDER/LIMIT/FOR/RETURNING/…). */
export function whereClause(tokens: readonly SqlToken[]): SqlToken[] {
  const start = indexOfTopLevelWord(tokens, 'where');
  if (start === -1) return [];
  const stops = new Set([
    'group',
    'order',
    'limit',
    'offset',
    'for',
    'returning',
    'having',
    'window',
    'union',
    'except',
    'intersect',
    'fetch',
  ]);
  const out: SqlToken[] = [];
  let depth = 0;
  for (let i = start + 1; i < tokens.length; i++) {
    const token = tokens[i] as SqlToken;
    if (isPunctuation(token, '(')) depth++;
    if (isPunctuation(token, ')')) depth--;
    if (depth < 0) break;
    if (depth === 0 && token.kind === 'word' && stops.has(token.value)) break;
    out.push(token);
  }
  return out;
}

/** Column names mentioned in `tokens` (identifiers not followed by `(`; qualifiers dropped). */
export function mentionedColumns(tokens: readonly SqlToken[]): string[] {
  const columns: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const name = identifierName(tokens[i]);
    if (name === undefined || isPunctuation(tokens[i + 1], '(') || isPunctuation(tokens[i + 1], '.')) continue;
    columns.push(name);
  }
  return columns;
}

/** Whether a SELECT reads pending work: filtered on a status-like column or from a queue-like table. */
export function isPendingRowsSelect(statement: SqlStatement): boolean {
  if (statement.kind !== 'select') return false;
  if (hasRowLockClause(statement.tokens)) return false;
  if (mentionedColumns(whereClause(statement.tokens)).some(isStatusLikeColumn)) return true;
  return tableNames(statement.tokens).some(isQueueLikeTable);
}

/** An UPDATE whose WHERE re-checks the state (`… AND status = 'pending'`): a conditional transition. */
export function isConditionalTransition(statement: SqlStatement): boolean {
  if (statement.kind !== 'update') return false;
  return mentionedColumns(whereClause(statement.tokens)).some(isStatusLikeColumn);
}

/** Methods that run a callback inside a transaction, handing it the transaction's client. */
export const TRANSACTION_CALLBACK_METHODS: ReadonlySet<string> = new Set(['transaction', '$transaction', 'begin', 'tx']);

/** Methods that start / end a transaction on the client they are called on (TypeORM QueryRunner…). */
export const TRANSACTION_BEGIN_METHODS: ReadonlySet<string> = new Set(['startTransaction']);
export const TRANSACTION_COMMIT_METHODS: ReadonlySet<string> = new Set(['commitTransaction', 'commit']);

// ---------------------------------------------------------------------------------------------
// Query-builder and ORM shapes a worker's read and update take (Prisma, TypeORM, Sequelize,
// Knex, Kysely, Drizzle, Mongoose). Names only: the rule matches them on method chains.

/** Methods that read rows (`prisma.job.findMany`, `repo.findBy`, `knex('jobs').where`, `db.selectFrom`). */
export const READ_METHODS: ReadonlySet<string> = new Set([
  'findMany',
  'findFirst',
  'findFirstOrThrow',
  'findAll',
  'find',
  'findBy',
  'findOne',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'select',
  'selectAll',
  'selectFrom',
  'from',
  'where',
  'first',
  'getMany',
  'getOne',
]);

/** Methods that update or remove a row a worker just acted on. */
export const UPDATE_METHODS: ReadonlySet<string> = new Set([
  'update',
  'updateMany',
  'updateOne',
  'updateTable',
  'save',
  'upsert',
  'delete',
  'deleteMany',
  'deleteFrom',
  'destroy',
  'remove',
  'softDelete',
  'del',
]);

/** Methods that add a row (`prisma.job.create`, `knex('jobs').insert`, `db.insertInto('jobs')`, an upsert). */
export const CREATE_METHODS: ReadonlySet<string> = new Set(['create', 'createMany', 'insert', 'insertInto', 'upsert']);

/** Methods that write rows; a chain with one of these is a write, not a read. */
export const WRITE_METHODS: ReadonlySet<string> = new Set([
  ...UPDATE_METHODS,
  'insert',
  'insertInto',
  'create',
  'createMany',
  'increment',
  'decrement',
  'set',
  'returning',
]);

/** Chain methods that lock the rows read (Knex/Kysely `forUpdate().skipLocked()`, Drizzle `for('update')`, TypeORM `setLock`). */
export const ROW_LOCK_METHODS: ReadonlySet<string> = new Set([
  'forUpdate',
  'forNoKeyUpdate',
  'skipLocked',
  'for',
  'setLock',
  'setOnLocked',
  'lock',
]);

/** Find-option keys that lock the rows read (TypeORM `lock: { mode, onLocked }`, Sequelize `lock`, `skipLocked`, Bookshelf `forUpdate: true`). */
export const ROW_LOCK_OPTION_KEYS: ReadonlySet<string> = new Set(['lock', 'skipLocked', 'forUpdate']);

/** Chain methods whose arguments are filters (`where`, `andWhere`, `whereNull`, `filter`). */
export const FILTER_METHOD = /^(?:(?:and|or)?where(?:Null|NotNull|In|Not)?|filter)$/i;

/** Methods whose first argument is itself the filter (TypeORM `findBy`, Mongoose `find`). */
export const CRITERIA_FIRST_METHODS: ReadonlySet<string> = new Set([
  'findBy',
  'findOneBy',
  'findOneByOrFail',
  'find',
  'findOne',
  'countBy',
]);

/** A Repository / Model suffix dropped before asking whether a name is queue-like (`outboxRepository`). */
export function collectionName(name: string): string {
  return name.replace(/(?:Repository|Repo|Model|Table|Entity|Collection)$/i, '') || name;
}
