// The two halves of a worker's claim, in raw SQL and in query builders / ORMs: the read of
// pending rows (`SELECT … WHERE status = 'pending'`, `prisma.job.findMany({ where: { status } })`,
// `knex('outbox').where(…)`) and the update of a row it acted on (`UPDATE … WHERE id = $1`,
// `prisma.job.update({ where: { id } })`, `job.save()`), with whether that update is a
// conditional transition (re-checks the state) and whether its row count is used.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { DOCUMENT_WRITES, LAST_CHANGE_COLUMN, PRIMARY_KEY_COLUMN } from '../../src/knowledge/orm-reads-writes.js';
import {
  collectionName,
  CRITERIA_FIRST_METHODS,
  FILTER_METHOD,
  hasRowLockClause,
  isQueueLikeTable,
  isStatusLikeColumn,
  mentionedColumns,
  parseSql,
  READ_METHODS,
  ROW_LOCK_METHODS,
  ROW_LOCK_OPTION_KEYS,
  tableNames,
  TIMESTAMP_COLUMN,
  UPDATE_METHODS,
  VERSION_COLUMN,
  whereClause,
  WRITE_METHODS,
} from '../../src/knowledge/sql.js';
import { filterContexts, filterLinkOf, objectProperty } from './filter-links.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isOutermostCall, methodChain, receiverName, unwrap, type ChainLink } from '../../analysis/sql/method-chain.js';
import { constantInitializer, sqlSentBy } from '../../analysis/sql/sql-text.js';
import { plainQuerySql } from './plain-queries.js';
import { thenRows } from './then-rows.js';
import { isResultUsed, keyName, readsModifiedCount } from './row-names.js';
import { chainTable } from './tables.js';
import { readsBackByToken } from './token-claims.js';
import {
  filtersOnAgeCutoff,
  isAgeCutoff,
  isSqlAgeCutoff,
  namesRowsByKey,
  rechecksWrittenField,
  sqlNamesRowByKey,
  sqlNamesRowsByKeyList,
  sqlRechecksWrittenColumn,
  sqlStateColumn,
} from './filter-marks.js';
import { lockEndsBeforeWork, skipsLocked } from './short-locks.js'; // a row lock counts only while its transaction is open

export { filterContexts } from './filter-links.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Node = TSESTree.Node;
export type DatabaseCall = TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;

export interface ClaimVocabulary {
  /** Extra column names that hold a row's state. */
  statusColumns: readonly string[];
  /** Extra table / model names that are work queues. */
  queueTables: readonly string[];
}

export interface PendingRead {
  node: DatabaseCall;
  kind: 'sql' | 'builder';
  /** Where the report sits: the SELECT keyword inside the SQL, or the read method's name. */
  reportNode: Node;
  loc: TSESTree.SourceLocation | undefined;
  /** The table / model read, when known. */
  table: string | undefined;
  /** The table the read names plainly (tables.ts), for telling an update of another table apart. */
  named?: string | undefined;
  /** The status-like column filtered on, when there is one. */
  statusColumn: string | undefined;
}

export interface RowUpdate {
  node: DatabaseCall;
  /** The update re-checks the state in its filter (`… AND status = 'pending'`). */
  conditional: boolean;
  /** The update's result (row count) is used rather than discarded, or the update throws when no row matches. */
  countChecked: boolean;
  /**
   * The write moves the row on: it deletes it, sets a status-like column (other than copying one
   * the row already holds), stamps a column with a constant (`new Date()`, `true`, `'V2'`), or
   * writes what cannot be seen (a spread, `save()`, raw SQL). A write of computed values only
   * (`{ concurrencyLimit: newLimit }`) recomputes a derived field: the same whichever replica
   * writes last.
   */
  changesState: boolean;
  /**
   * The table an update (not a delete) names plainly (tables.ts), when it does: a state set on
   * rows of another table is not a mark of the rows read; deleting their children is work on them.
   */
  table?: string | undefined;
  /** The table a delete names plainly: a delete of the read rows' children is work on them, but not their mark (mark-span.ts). */
  deletes?: string | undefined;
  /** For a mark a same-file handler makes (`node` is the call handing it the row): the handler's own write (mark-span.ts). */
  write?: DatabaseCall;
}

/** Methods that delete rows (`deleteMany`, `knex(…).del()`, `repo.softDelete`, `model.destroy()`). */
export const DELETE_METHODS: ReadonlySet<string> = new Set('delete deleteMany deleteFrom destroy remove softDelete del'.split(' '));

export const isStatus = (name: string, vocabulary: ClaimVocabulary): boolean =>
  vocabulary.statusColumns.includes(name) || isStatusLikeColumn(name);
export const isQueue = (name: string, vocabulary: ClaimVocabulary): boolean =>
  vocabulary.queueTables.includes(name) || isQueueLikeTable(collectionName(name));

function hasKey(node: Node | undefined, names: ReadonlySet<string>): boolean {
  if (node?.type !== 'ObjectExpression') return false;
  return node.properties.some((p) => p.type === 'Property' && names.has(keyName(p) ?? ''));
}

/** A filter callback's statement body (`.where(function () { … })`) is code, not a filter expression: not walked. */
const isStatementBody = (node: Node): boolean => node.type === 'BlockStatement';

/** Keys that combine filters of the same row (`OR: […]`, `NOT: {…}`, Mongo's `$and`). */
const COMBINATOR_KEY = /^(?:AND|OR|NOT|\$and|\$or|\$nor|\$not)$/;

/** A related row's filter (`partner: { networkStatus: 'approved' }`, `job: { is: { state } }`): that row's state, not the rows'. */
const isRelationFilter = (node: Node): boolean => {
  const property = node.parent;
  if (node.type !== 'ObjectExpression' || property?.type !== 'Property' || property.value !== node || property.computed) return false;
  const key = keyName(property);
  return key !== undefined && !COMBINATOR_KEY.test(key);
};

/**
 * The first status-like name a filter mentions: an object key, a member property, a column string.
 * For a read (`ownRows`), not in a related row's filter: rows are picked by their own state.
 */
function statusNameIn(
  contexts: ReadonlyArray<{ node: Node; literalIsColumn: boolean }>,
  sourceCode: SourceCode,
  vocabulary: ClaimVocabulary,
  ownRows = false,
): string | undefined {
  for (const { node, literalIsColumn } of contexts) {
    // A read's age cutoff on a done stamp picks finished rows, not pending ones (filter-marks.ts).
    const state = (n: Node, name: string): boolean => isStatus(name, vocabulary) && !(ownRows && isAgeCutoff(n, name));
    if (literalIsColumn && node.type === 'Literal' && typeof node.value === 'string' && state(node, node.value.split('.').pop() ?? ''))
      return node.value;
    const skip = (n: Node): boolean => isStatementBody(n) || (ownRows && isRelationFilter(n));
    for (const n of [node, ...descendants(node, sourceCode.visitorKeys, skip)]) {
      if (n.type === 'Property') {
        const key = keyName(n);
        // A MongoDB path into an embedded document or array names its last field (`'payouts.status': 'pending'`).
        if (key !== undefined && state(n, key.split('.').pop() ?? key)) return key;
      } else if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier' && state(n, n.property.name)) {
        return n.property.name;
      }
    }
  }
  return undefined;
}

function filtersOnPrimaryKey(chain: readonly ChainLink[]): boolean {
  const isFilter = filterLinkOf(chain);
  for (const link of chain) {
    if (!isFilter(link.name)) continue;
    const [column, operator, value] = link.call.arguments;
    if (column?.type !== 'Literal' || typeof column.value !== 'string' || !PRIMARY_KEY_COLUMN.test(column.value.split('.').pop() ?? ''))
      continue;
    if (value === undefined || (operator?.type === 'Literal' && operator.value === '=')) return true;
  }
  return filterContexts(chain, CRITERIA_FIRST_METHODS).some(
    ({ node }) =>
      namesRowsByKey(node) ||
      (node.type === 'ObjectExpression' &&
        node.properties.some(
          (p) => p.type === 'Property' && PRIMARY_KEY_COLUMN.test(keyName(p) ?? '') && p.value.type !== 'ObjectExpression',
        )),
  );
}

/** A read of pending rows that takes no row locks, or `undefined`. */
export function pendingReadOf(node: DatabaseCall, sourceCode: SourceCode, vocabulary: ClaimVocabulary): PendingRead | undefined {
  const use = sqlSentBy(node, sourceCode, /select|table|values/i) ?? plainQuerySql(node, sourceCode, /select|table|values/i);
  if (use === 'absent') return undefined;
  if (use) {
    const parsed = parseSql(use.sql.text);
    for (const statement of parsed?.statements ?? []) {
      if (statement.kind !== 'select' || (hasRowLockClause(statement.tokens) && !lockEndsBeforeWork(node, sourceCode))) continue;
      const where = whereClause(statement.tokens);
      const statusColumn = sqlStateColumn(where, (name) => isStatus(name, vocabulary));
      const tables = tableNames(statement.tokens);
      const agedOut = (): boolean => where.some((_, i) => isSqlAgeCutoff(where, i));
      const picked = (): boolean => sqlNamesRowByKey(where) || sqlNamesRowsByKeyList(where) || agedOut();
      const queue = tables.some((t) => isQueue(t, vocabulary)) || skipsLocked(statement.tokens); // or a queue's lock let go
      if (statusColumn === undefined && (!queue || picked())) continue;
      const first = statement.tokens[0];
      if (!first) continue;
      const loc = use.sql.locOf(first.start, first.end);
      return { node, kind: 'sql', reportNode: use.sql.node, loc, table: tables[0], named: tables[0], statusColumn };
    }
    return undefined;
  }
  if (node.type !== 'CallExpression' || !isOutermostCall(node)) return undefined;
  const chain = methodChain(node);
  const readLink = chain.find((l) => l.name !== undefined && (READ_METHODS.has(l.name) || FILTER_METHOD.test(l.name)));
  const linked = (names: ReadonlySet<string>): boolean => chain.some((l) => l.name !== undefined && names.has(l.name));
  if (!readLink || linked(WRITE_METHODS) || (linked(ROW_LOCK_METHODS) && !lockEndsBeforeWork(node, sourceCode))) return undefined;
  // `{ forUpdate: true }` inline, or a same-file constant (`const options = { transacting, forUpdate: true }`).
  const optionsObject = (a: TSESTree.Node): TSESTree.Node | undefined => (a.type === 'Identifier' ? constantInitializer(a, sourceCode) : a);
  if (chain.some((l) => l.call.arguments.some((a) => hasKey(optionsObject(a), ROW_LOCK_OPTION_KEYS)))) return undefined;
  // A callback argument to `find` / `filter` is Array.prototype, not a query.
  const arrayMethod =
    (readLink.name === 'find' || readLink.name === 'findOne' || readLink.name === 'filter') &&
    readLink.call.arguments.some((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression');
  if (arrayMethod) return undefined;
  const statusColumn = statusNameIn(filterContexts(chain, CRITERIA_FIRST_METHODS), sourceCode, vocabulary, true);
  const tables: string[] = [];
  for (const link of chain) {
    const first = link.call.arguments[0];
    const isTableLink =
      link.object === undefined || link.name === 'from' || link.name === 'selectFrom' || link.name === 'table' || link.name === 'into';
    if (isTableLink && first?.type === 'Literal' && typeof first.value === 'string')
      tables.push(first.value.split(/\s+/)[0]?.split('.').pop() ?? first.value);
    if ((isTableLink || (link.name !== undefined && READ_METHODS.has(link.name))) && first?.type === 'Identifier') tables.push(first.name);
    if (link.name !== undefined && READ_METHODS.has(link.name)) {
      const receiver = receiverName(link.object);
      if (receiver !== undefined) tables.push(receiver);
    }
  }
  const table = tables.find((t) => isQueue(t, vocabulary));
  const picked = (): boolean =>
    filtersOnPrimaryKey(chain) || filtersOnAgeCutoff(filterContexts(chain, CRITERIA_FIRST_METHODS), sourceCode.visitorKeys);
  if (statusColumn === undefined && (table === undefined || picked())) return undefined;
  const named = chainTable(chain);
  return { node, kind: 'builder', reportNode: readLink.nameNode, loc: undefined, table: table ?? tables[0], named, statusColumn };
}

/** An update (or delete) of rows, with whether it is a checked conditional transition; `undefined` for anything else. */
export function rowUpdateOf(node: DatabaseCall, sourceCode: SourceCode, vocabulary: ClaimVocabulary): RowUpdate | undefined {
  const use = sqlSentBy(node, sourceCode, /update|delete/i) ?? plainQuerySql(node, sourceCode, /update|delete/i);
  if (use === 'absent') return undefined;
  if (use) {
    const statement = parseSql(use.sql.text)?.statements.find((s) => s.kind === 'update' || s.kind === 'delete');
    if (!statement) return undefined;
    const filtered = statement.kind === 'update' ? mentionedColumns(whereClause(statement.tokens)) : [];
    const conditional = filtered.some((c) => isStatus(c, vocabulary)) || sqlRechecksWrittenColumn(statement.tokens, filtered);
    return {
      node,
      conditional,
      countChecked: isResultUsed(node, sourceCode),
      changesState: true,
      table: statement.kind === 'update' ? tableNames(statement.tokens)[0] : undefined,
      deletes: statement.kind === 'delete' ? tableNames(statement.tokens)[0] : undefined,
    };
  }
  if (node.type !== 'CallExpression' || !isOutermostCall(node)) return undefined;
  const chain = methodChain(node);
  if (!chain.some((l) => l.name !== undefined && (UPDATE_METHODS.has(l.name) || DOCUMENT_WRITES.has(l.name)))) return undefined;
  const contexts = filterContexts(chain, new Set());
  // TypeORM `repo.update(criteria, partial)`: the criteria come first (Sequelize puts `where` in the options).
  // MongoDB `updateOne(filter, update)`, `deleteMany(filter)`: the filter comes first.
  for (const link of chain) {
    const [criteria, second] = link.call.arguments;
    if (criteria?.type !== 'ObjectExpression' || objectProperty(criteria, 'where')) continue;
    const typeorm = (link.name === 'update' || link.name === 'delete') && second && !objectProperty(second, 'where');
    if (typeorm || MONGO_FILTER_FIRST.has(link.name ?? '')) contexts.push({ node: criteria, literalIsColumn: false });
  }
  const conditional =
    statusNameIn(contexts, sourceCode, vocabulary) !== undefined ||
    comparesReadValue(contexts) ||
    rechecksWrittenField(contexts, writtenValues(chain), sourceCode.visitorKeys) ||
    setsStateCountingModified(node, chain, vocabulary);
  // Prisma's `update` (one row, `{ where, data }`) throws when its filter matches no row: a
  // re-checked state there decides as surely as a row count (`updateMany` returns a count instead).
  const throwsWhenUnmatched = chain.some((l) => l.name === 'update' && l.call.arguments.some((a) => isPrismaUpdateArgument(a)));
  // Rows stamped with a token this call made and read back by it were counted another way (token-claims.ts).
  // …or handed to a `.then(([count]) => …)` callback (then-rows.ts).
  const countChecked =
    throwsWhenUnmatched ||
    isResultUsed(node, sourceCode) ||
    thenRows(node) !== undefined ||
    (conditional && readsBackByToken(node, writtenValues(chain), sourceCode));
  return {
    node,
    conditional,
    countChecked,
    changesState: writesClaimState(chain, vocabulary),
    ...(chain.some((l) => l.name !== undefined && DELETE_METHODS.has(l.name))
      ? { deletes: chainTable(chain) }
      : { table: chainTable(chain) }),
  };
}

/**
 * A MongoDB `$set` of a state constant whose `modifiedCount` is read: the server applies
 * one-document updates one at a time, and a `$set` that finds the value already there changes
 * nothing and counts 0 — so only one replica sees 1, as with a re-checked state in the filter.
 */
function setsStateCountingModified(node: Node, chain: readonly ChainLink[], vocabulary: ClaimVocabulary): boolean {
  const link = chain.find((l) => l.name === 'updateOne' || l.name === 'updateMany');
  const set = objectProperty(link?.call.arguments[1], '$set');
  if (!link || set?.type !== 'ObjectExpression' || !readsModifiedCount(node)) return false;
  return set.properties.some((p) => p.type === 'Property' && isStatus(keyName(p) ?? '', vocabulary) && isStampValue(p.value));
}

/** MongoDB writes whose first argument is the filter. */
const MONGO_FILTER_FIRST: ReadonlySet<string> = new Set([
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findOneAndReplace',
  'deleteOne',
  'deleteMany',
  'findOneAndDelete',
]);

const isPrismaUpdateArgument = (node: Node): boolean =>
  objectProperty(node, 'where') !== undefined && objectProperty(node, 'data') !== undefined;

/** An optimistic compare-and-set: the filter repeats a version-like value read from the row (`where: { id, nextRunAt: job.nextRunAt }`). */
function comparesReadValue(contexts: ReadonlyArray<{ node: Node }>): boolean {
  return contexts.some(
    ({ node }) =>
      node.type === 'ObjectExpression' &&
      node.properties.some((p) => {
        if (p.type !== 'Property') return false;
        const key = keyName(p);
        const value = p.value.type === 'MemberExpression' && !p.value.computed ? p.value.property : undefined;
        return (
          key !== undefined &&
          (VERSION_COLUMN.test(key) || TIMESTAMP_COLUMN.test(key)) &&
          value?.type === 'Identifier' &&
          value.name === key
        );
      }),
  );
}

/** The values object a builder / ORM update writes (`data:`, `.set({…})`, `update(values)`), or `undefined` when it cannot be seen. */
export function writtenValues(chain: readonly ChainLink[]): Node | undefined {
  const set = chain.find((l) => l.name === 'set');
  if (set) return set.call.arguments[0];
  const link = chain.find((l) => l.name !== undefined && UPDATE_METHODS.has(l.name));
  if (!link || link.name === 'save' || link.name === 'upsert') return undefined;
  const args = link.call.arguments;
  const prisma = args.find((a) => objectProperty(a, 'data') !== undefined);
  if (prisma) return objectProperty(prisma, 'data');
  // TypeORM `update(criteria, partial)` and Mongoose `updateOne(filter, update)`; Knex and Sequelize `update(values, { where })`.
  const [first, second] = args;
  if (second?.type === 'ObjectExpression' && !objectProperty(second, 'where')) return second;
  return first?.type === 'ObjectExpression' && !objectProperty(first, 'where') ? first : undefined;
}

/** A value that stamps the row rather than carrying a computed one: a literal, an enum member, `new Date()`, `now()`. */
export function isStampValue(node: Node): boolean {
  const value = unwrap(node);
  if (value.type === 'Literal' || (value.type === 'TemplateLiteral' && value.expressions.length === 0)) return true;
  if (value.type === 'NewExpression') return true;
  if (value.type === 'CallExpression') {
    const callee = value.callee;
    const name =
      callee.type === 'Identifier'
        ? callee.name
        : callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier'
          ? callee.property.name
          : '';
    return /^now$/i.test(name);
  }
  return value.type === 'MemberExpression' && value.object.type === 'Identifier' && /^[A-Z]/.test(value.object.name);
}

/** Whether an update moves its row on (see `RowUpdate.changesState`). */
function writesClaimState(chain: readonly ChainLink[], vocabulary: ClaimVocabulary): boolean {
  if (chain.some((l) => l.name !== undefined && DELETE_METHODS.has(l.name))) return true;
  const values = writtenValues(chain);
  if (values?.type !== 'ObjectExpression') return true;
  return values.properties.some((p) => {
    const key = p.type === 'Property' && !p.computed ? keyName(p) : undefined;
    if (p.type !== 'Property' || key === undefined || key.startsWith('$')) return true;
    if (LAST_CHANGE_COLUMN.test(key)) return false; // the stamp of every update moves nothing on
    if (isStatus(key, vocabulary)) {
      // A state copied from another state field of a row (`status: row.raw_status`) is not a transition.
      const value = p.value;
      const copied =
        value.type === 'MemberExpression' && !value.computed && value.property.type === 'Identifier' ? value.property.name : undefined;
      return copied === undefined || !isStatus(copied, vocabulary);
    }
    return isStampValue(p.value);
  });
}
