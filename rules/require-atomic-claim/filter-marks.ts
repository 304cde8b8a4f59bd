// Marks in a read's or an update's filter that tell a claim of pending work from its look-alikes:
//
// - an age cutoff on a "done" stamp (`started_at < cutoff`, `processedAt: { lt: cutoff }`,
//   `lt(runs.finishedAt, cutoff)`) picks rows finished long ago (a retention clean-up), not
//   pending ones — a lease stamp (`locked_at < stale`) is left alone: an old lease is claimable;
// - rows named by their key (`eq(tasks.id, taskId)`, `inArray(tasks.id, ids)`,
//   `id: { in: ids }`, SQL `id IN (…)`): the caller picked them;
// - an update that re-checks a column it writes (`SET used_at = now() WHERE id = $1 AND used_at
//   IS NULL`, `where: { id, redeemedAt: null }, data: { redeemedAt }`): a compare-and-set whose row
//   count tells which replica changed the row, whatever the column is called.
import type { TSESTree } from '@typescript-eslint/utils';
import { PRIMARY_KEY_COLUMN } from '../../src/knowledge/orm-reads-writes.js';
import { isStatusLikeColumn, TIMESTAMP_COLUMN } from '../../src/knowledge/sql.js';
import { identifierName, indexOfTopLevelWord, isPunctuation, isWord, type SqlToken } from '../../src/knowledge/sql-tokens.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrap } from '../../analysis/sql/method-chain.js';
import { keyName } from './row-names.js';

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

/** Stamps of a lease (its age means it ran out, and the row can be claimed again). */
const LEASE_STAMP = /^(?:locked|claimed|picked|leased)/i;
/** Operators and Mongo / Prisma / Sequelize keys of "before". */
const BEFORE_OPERATORS: ReadonlySet<string> = new Set(['<', '<=', 'lt', 'lte', '$lt', '$lte']);
/** TypeORM's find operators and Drizzle's comparisons of "before". */
const BEFORE_CALLS: ReadonlySet<string> = new Set(['LessThan', 'LessThanOrEqual', 'lt', 'lte']);
/** Drizzle's comparisons that name rows by key. */
const KEY_CALLS: ReadonlySet<string> = new Set(['eq', 'inArray']);

/** A status-like stamp of something done (`processed_at`, `startedAt`, `sent_at`) — not a due time (`run_at`) nor a lease. */
const isDoneStamp = (name: string): boolean => isStatusLikeColumn(name) && TIMESTAMP_COLUMN.test(name) && !LEASE_STAMP.test(name);
const calleeName = (node: Node): string | undefined =>
  node.type === 'CallExpression' ? (node.callee.type === 'Identifier' ? node.callee.name : memberPropertyName(node.callee)) : undefined;

/** `{ lt: cutoff }`, `{ [Op.lte]: cutoff }`, `LessThan(cutoff)`: a "before" bound and nothing else. */
export function isBeforeBound(value: Node): boolean {
  const v = unwrap(value);
  if (v.type === 'CallExpression') return BEFORE_CALLS.has(calleeName(v) ?? '');
  if (v.type !== 'ObjectExpression' || v.properties.length === 0) return false;
  return v.properties.every((p) => {
    if (p.type !== 'Property') return false;
    const key = p.computed ? memberPropertyName(p.key) : keyName(p);
    return key !== undefined && BEFORE_OPERATORS.has(key);
  });
}

/**
 * Whether a status-like name met in a read's filter is a done stamp compared as "before" a
 * cutoff: a property (`startedAt: { lt: cutoff }`), a column string of a filter method
 * (`.where('processed_at', '<', cutoff)`), or a Drizzle column (`lt(runs.finishedAt, cutoff)`).
 */
export function isAgeCutoff(node: Node, name: string): boolean {
  if (!isDoneStamp(name)) return false;
  if (node.type === 'Property') return isBeforeBound(node.value);
  const parent = node.parent;
  if (parent?.type !== 'CallExpression' || parent.arguments[0] !== node) return false;
  if (node.type === 'Literal') {
    const operator = parent.arguments[1];
    return parent.arguments.length === 3 && operator?.type === 'Literal' && BEFORE_OPERATORS.has(String(operator.value));
  }
  return node.type === 'MemberExpression' && BEFORE_CALLS.has(calleeName(parent) ?? '');
}

/** Whether a builder read's filter holds an age cutoff on a done stamp (a queue table's finished rows). */
export function filtersOnAgeCutoff(contexts: ReadonlyArray<{ node: Node; literalIsColumn: boolean }>, keys: VisitorKeys): boolean {
  return contexts.some(({ node, literalIsColumn }) => {
    if (literalIsColumn && node.type === 'Literal' && typeof node.value === 'string')
      return isAgeCutoff(node, node.value.split('.').pop() ?? '');
    for (const n of [node, ...descendants(node, keys, (d) => d.type === 'BlockStatement')]) {
      const name = n.type === 'Property' ? keyName(n) : memberPropertyName(n);
      if (name !== undefined && isAgeCutoff(n, name)) return true;
    }
    return false;
  });
}

/** In a SQL filter, whether the column at `index` is a done stamp compared as "before" a cutoff. */
export function isSqlAgeCutoff(tokens: readonly SqlToken[], index: number): boolean {
  const name = identifierName(tokens[index]);
  const next = tokens[index + 1];
  return name !== undefined && isDoneStamp(name) && next?.kind === 'operator' && BEFORE_OPERATORS.has(next.value);
}

/**
 * A Drizzle filter naming rows by their key: `eq(tasks.id, taskId)`, `inArray(tasks.id, ids)`,
 * alone or in an `and(…)`; or Prisma's `id: { in: ids }`.
 */
export function namesRowsByKey(filter: Node): boolean {
  const byKey = (n: Node): boolean => {
    if (n.type === 'Property') {
      const value = n.value;
      return (
        PRIMARY_KEY_COLUMN.test(keyName(n) ?? '') &&
        value.type === 'ObjectExpression' &&
        value.properties.length === 1 &&
        value.properties[0]?.type === 'Property' &&
        keyName(value.properties[0]) === 'in'
      );
    }
    const [column] = n.type === 'CallExpression' ? n.arguments : [];
    return KEY_CALLS.has(calleeName(n) ?? '') && column !== undefined && PRIMARY_KEY_COLUMN.test(memberPropertyName(column) ?? '');
  };
  if (byKey(filter)) return true;
  if (filter.type === 'CallExpression' && calleeName(filter) === 'and') return filter.arguments.some(byKey);
  return filter.type === 'ObjectExpression' && filter.properties.some(byKey);
}

/**
 * A read of a queue-like table with no status filter that names its row by its primary key
 * (`where('id', '=', taskId)`) was handed the row by its caller: it picks nothing.
 */
export function sqlNamesRowByKey(where: readonly SqlToken[]): boolean {
  return where.some((token, i) => {
    const name = identifierName(token);
    return name !== undefined && PRIMARY_KEY_COLUMN.test(name) && where[i + 1]?.kind === 'operator' && where[i + 1]?.value === '=';
  });
}

/** The first status-like column of a SQL filter that is not an age cutoff on a done stamp (`started_at < $1`). */
export function sqlStateColumn(where: readonly SqlToken[], isState: (name: string) => boolean): string | undefined {
  for (let i = 0; i < where.length; i++) {
    const name = identifierName(where[i]);
    if (name === undefined || isPunctuation(where[i + 1], '(') || isPunctuation(where[i + 1], '.')) continue;
    if (isState(name) && !isSqlAgeCutoff(where, i)) return name;
  }
  return undefined;
}

/** SQL `id IN (…)` in a filter: rows named by their key (`id = $1` and `id = ANY($1)` are `sqlNamesRowByKey`'s). */
export function sqlNamesRowsByKeyList(where: readonly SqlToken[]): boolean {
  return where.some((token, i) => {
    const name = identifierName(token);
    return name !== undefined && PRIMARY_KEY_COLUMN.test(name) && isWord(where[i + 1], 'in') && !isWord(where[i + 2], 'select');
  });
}

/** The columns a SQL UPDATE sets (`SET a = …, b = …`), lower-cased. */
export function setColumns(tokens: readonly SqlToken[]): string[] {
  const start = indexOfTopLevelWord(tokens, 'set');
  if (start === -1) return [];
  const columns: string[] = [];
  let depth = 0;
  for (let i = start + 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (isPunctuation(token, '(')) depth++;
    if (isPunctuation(token, ')')) depth--;
    if (depth === 0 && isWord(token, 'where', 'from', 'returning')) break;
    const name = identifierName(token);
    const next = tokens[i + 1];
    if (depth === 0 && name !== undefined && next?.kind === 'operator' && next.value === '=') columns.push(name.toLowerCase());
  }
  return columns;
}

/** A SQL UPDATE whose filter re-checks a column it sets (other than the key). */
export function sqlRechecksWrittenColumn(tokens: readonly SqlToken[], whereColumns: readonly string[]): boolean {
  const written = setColumns(tokens);
  return whereColumns.some((c) => !PRIMARY_KEY_COLUMN.test(c) && written.includes(c.toLowerCase()));
}

/**
 * Column names a builder filter mentions: object keys, a filter method's column string, a column
 * compared by a call (`isNull(t.usedAt)`, `eq(t.state, …)` — its first argument).
 */
function filterNames(contexts: ReadonlyArray<{ node: Node; literalIsColumn: boolean }>, keys: VisitorKeys): Set<string> {
  const names = new Set<string>();
  for (const { node, literalIsColumn } of contexts) {
    if (literalIsColumn && node.type === 'Literal' && typeof node.value === 'string') names.add(node.value.split('.').pop() ?? '');
    for (const n of [node, ...descendants(node, keys, (d) => d.type === 'BlockStatement')]) {
      const column = n.type === 'CallExpression' ? n.arguments[0] : undefined;
      const name = n.type === 'Property' ? keyName(n) : column ? memberPropertyName(column) : undefined;
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

/** A builder update whose filter re-checks a field it writes (other than the key): `where: { id, usedAt: null }, data: { usedAt }`. */
export function rechecksWrittenField(
  contexts: ReadonlyArray<{ node: Node; literalIsColumn: boolean }>,
  values: Node | undefined,
  keys: VisitorKeys,
): boolean {
  if (values?.type !== 'ObjectExpression') return false;
  const filtered = filterNames(contexts, keys);
  return values.properties.some((p) => {
    const key = p.type === 'Property' ? keyName(p) : undefined;
    return key !== undefined && !PRIMARY_KEY_COLUMN.test(key) && filtered.has(key);
  });
}
