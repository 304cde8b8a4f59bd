// Rows marked after the work, in one statement for the whole batch. A worker that reads pending
// rows, acts on each in a loop (or a callback over the list), and only then marks them —
// `updateMany({ where: { id: { in: done } } })` with `done.push(row.id)` in the loop, `WHERE id =
// ANY($1)` with `[rows.map((r) => r.id)]` — is the same claim as one that marks each row in the
// loop: two replicas read the same rows before either marks them, and both act.
//
// The names that carry the rows out of the loop: lists the loop collects a row's value into
// (`done.push(row.id)`, `sent.add(row.id)`), and names derived from the list read
// (`const ids = rows.map((r) => r.id)`), or rows picked from it (`const next = rows.find(…)`,
// `rows[0]`, a driver result's `result.rows`). The read's own name counts too, used as a value — its
// `.length` (a count written to a summary row) does not name a row.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { PRIMARY_KEY_COLUMN, RESULT_ROW_FIELDS } from '../../src/knowledge/orm-reads-writes.js';
import { ELEMENT_METHODS } from '../../src/knowledge/loaded-value-forms.js';
import { keyName, mentionsAny, rootName } from './row-names.js';

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

/** Methods that add a value to a list or set. */
const COLLECTING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'add']);
/** Properties of a list that say how many rows, not which. */
const SIZE_PROPERTIES: ReadonlySet<string> = new Set(['length', 'size']);

/**
 * Whether `node` names a row by its key: `row.id`, `job._id`, or a key destructured from it
 * (`({ id }) => id`). A value of another field (`campaign.workflowId`) names other rows.
 */
function namesRowKey(node: Node, keys: VisitorKeys): boolean {
  for (const n of [node, ...descendants(node, keys)]) {
    if (n.type === 'MemberExpression' && PRIMARY_KEY_COLUMN.test(memberPropertyName(n) ?? '')) return true;
    if (n.type === 'Property' && n.parent?.type === 'ObjectPattern' && PRIMARY_KEY_COLUMN.test(keyName(n) ?? '')) return true;
  }
  return false;
}

/** Lists declared outside `body` that it collects a row's key into (`done.push(row.id)`). */
export function collectedNames(body: Node, rowNames: readonly string[], keys: VisitorKeys): string[] {
  const collected: string[] = [];
  for (const node of descendants(body, keys)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') continue;
    const list = node.callee.object;
    if (list.type !== 'Identifier' || collected.includes(list.name)) continue;
    if (!COLLECTING_METHODS.has(memberPropertyName(node.callee) ?? '')) continue;
    if (node.arguments.some((a) => mentionsAny(a, rowNames, keys) && namesRowKey(a, keys))) collected.push(list.name);
  }
  return collected;
}

const ELEMENTS: ReadonlySet<string> = new Set(ELEMENT_METHODS);
const ROW_FIELDS: ReadonlySet<string> = new Set(RESULT_ROW_FIELDS);

/** Rows of the list itself: `rows.find((r) => …)`, `rows.filter(…)`, `rows[0]`, a result's `result.rows`. */
const picksRows = (init: Node): boolean =>
  init.type === 'CallExpression'
    ? init.callee.type === 'MemberExpression' && ELEMENTS.has(memberPropertyName(init.callee) ?? '')
    : init.type === 'MemberExpression' && (init.computed || ROW_FIELDS.has(memberPropertyName(init) ?? ''));

/** Names declared after `from` from the keys of `names` (`const ids = rows.map((r) => r.id)`), in source order, transitively. */
export function derivedNames(scope: Node, from: number, names: readonly string[], keys: VisitorKeys): string[] {
  const carried = [...names];
  for (const node of descendants(scope, keys)) {
    if (node.type !== 'VariableDeclarator' || node.range[0] < from || node.id.type !== 'Identifier' || !node.init) continue;
    const init = node.init.type === 'AwaitExpression' ? node.init.argument : node.init;
    const root = init.type === 'CallExpression' ? rootName(init.callee) : rootName(init);
    if (root === undefined || !carried.includes(root)) continue;
    if (init.type === 'Identifier' || carried.indexOf(root) >= names.length || namesRowKey(init, keys) || picksRows(init))
      carried.push(node.id.name);
  }
  return carried.slice(names.length);
}

/** Whether `node` uses one of `names` as a value that names rows — not a property key, not its `.length`. */
export function mentionsRowsOf(node: Node, names: readonly string[], keys: VisitorKeys): boolean {
  if (names.length === 0) return false;
  for (const n of [node, ...descendants(node, keys)]) {
    if (n.type !== 'Identifier' || !names.includes(n.name)) continue;
    const parent = n.parent;
    if (parent?.type === 'Property' && parent.key === n && !parent.computed && !parent.shorthand) continue;
    if (parent?.type === 'MemberExpression' && parent.property === n && !parent.computed) continue;
    if (parent?.type === 'MemberExpression' && parent.object === n && SIZE_PROPERTIES.has(memberPropertyName(parent) ?? '')) continue;
    return true;
  }
  return false;
}
