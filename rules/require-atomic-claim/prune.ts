// A prune: rows read (`findMany({ where: { state: 'active' }, orderBy })`), the ones to drop worked
// out in memory (all past the top N, the stale ones), and one delete of them — nothing awaited
// between the read and the delete on the rows, and nothing after it but the delete's own result. No
// row is acted on, so two replicas running it delete the same rows twice: the second delete finds
// them gone. A sweep is the same: one update of the batch (picked by a list of keys) that stamps fixed values (`status: 'failed'`,
// `finishedAt: sql`now()``, a message built from no row): the second replica writes what the first
// did. An update that computes a value from the row (`attempts + 1`) or writes one taken from it is
// work on the rows. Other statements awaited in between (another table cleaned, another list read) do
// nothing with these rows. A delete in a loop, awaited work on the rows (or on a value worked out
// from them after the read) around it, a row handed on before it (published, emitted, sent — awaited
// or not), or the rows (or the ids deleted) used after it — handed back to a caller that acts on
// them, a queue popped — stays a claim.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { methodChain } from '../../analysis/sql/method-chain.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { DELETE_METHODS, isStampValue, writtenValues, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { resultNames } from './row-names.js';
import { HAND_OFF_METHODS } from '../../src/knowledge/hand-offs.js';

type Node = TSESTree.Node;
type Keys = Parameters<typeof descendants>[1];

/** An identifier used as a value: not a property's key or a member's name. */
const isValueName = (n: Node): n is TSESTree.Identifier =>
  n.type === 'Identifier' &&
  !(n.parent?.type === 'Property' && n.parent.key === n && !n.parent.computed) &&
  !(n.parent?.type === 'MemberExpression' && n.parent.property === n && !n.parent.computed);

/** The names a delete's arguments use (`toDelete` in `{ where: { id: { in: toDelete } } }`). */
const argumentNames = (call: TSESTree.CallExpression, keys: Keys): string[] =>
  call.arguments.flatMap((arg) => [arg, ...descendants(arg, keys)]).flatMap((n) => (isValueName(n) ? [n.name] : []));

/** Methods that put a value into a list or set kept in a name. */
const COLLECTING: ReadonlySet<string> = new Set(['push', 'unshift', 'add', 'set', 'splice']);

/** Whether `node` uses one of `names` as a value. */
const uses = (node: Node, names: ReadonlySet<string>, keys: Keys): boolean =>
  [node, ...descendants(node, keys)].some((n) => isValueName(n) && names.has(n.name));

/** The value names a binding pattern declares (`row`, `{ id }`, `[first]`). */
const boundNames = (pattern: Node, keys: Keys): string[] =>
  [pattern, ...descendants(pattern, keys)].flatMap((n) => (isValueName(n) ? [n.name] : []));

/**
 * The names the rows are known by from `from` on: `seed`, and what is declared from them — a
 * `const` computed from one (`const ids = rows.map(…)`), a list filled in a loop over them
 * (`toDelete.push(row.id)`), a loop's or a callback's row (`for (const row of rows)`, `rows.map((row) => …)`).
 */
function rowNames(scope: Node, from: number, seed: readonly string[], keys: Keys): Set<string> {
  const names = new Set(seed);
  for (let pass = 0, size = -1; pass < 3 && size !== names.size; pass++) {
    size = names.size;
    for (const node of descendants(scope, keys)) {
      if (node.range[0] < from) continue;
      if (node.type === 'VariableDeclarator' && node.init && uses(node.init, names, keys))
        boundNames(node.id, keys).forEach((n) => names.add(n));
      else if (node.type === 'ForOfStatement' && uses(node.right, names, keys)) boundNames(node.left, keys).forEach((n) => names.add(n));
      else if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && uses(node.callee.object, names, keys)) {
        for (const argument of node.arguments)
          if (argument.type === 'ArrowFunctionExpression' || argument.type === 'FunctionExpression')
            argument.params.forEach((param) => boundNames(param, keys).forEach((n) => names.add(n)));
      } else if (
        node.type === 'CallExpression' &&
        node.callee.type === 'MemberExpression' &&
        node.callee.object.type === 'Identifier' &&
        COLLECTING.has(memberPropertyName(node.callee) ?? '') &&
        node.arguments.some((argument) => uses(argument, names, keys))
      )
        names.add(node.callee.object.name); // `toDelete.push(insight.id)`
    }
  }
  return names;
}

/** SQL a tagged template stamps with: the time of the statement, or nothing. */
const STAMP_SQL = /^\s*(?:now\(\s*\)|current_timestamp|null)\s*$/i;

/** Whether an update writes fixed values only (see the file's header): no value taken or computed from `rows`. */
function stampsOnly(chain: ReturnType<typeof methodChain>, rows: ReadonlySet<string>, keys: Keys): boolean {
  const values = writtenValues(chain);
  if (values?.type !== 'ObjectExpression' || values.properties.length === 0) return false;
  return values.properties.every((p) => {
    if (p.type !== 'Property' || p.computed) return false;
    const value = p.value;
    if (value.type === 'TaggedTemplateExpression')
      return value.quasi.expressions.length === 0 && STAMP_SQL.test(value.quasi.quasis[0]?.value.raw ?? '');
    if (value.type === 'TemplateLiteral') return !uses(value, rows, keys);
    return isStampValue(value);
  });
}

/** Filters that pick rows by a list of keys: `whereIn('id', ids)`, `inArray(t.id, ids)`, `{ id: { in: ids } }`, `In(ids)`. */
const LIST_FILTER = /^(?:whereIn|inArray|in|\$in|In)$/;

/** Whether an update picks its rows by a list (a batch), not one row by its key: a one-row update is a claim of that row. */
function picksByList(chain: ReturnType<typeof methodChain>, keys: Keys): boolean {
  return chain.some(
    (link) =>
      LIST_FILTER.test(link.name ?? '') ||
      link.call.arguments.some((arg) =>
        [arg, ...descendants(arg, keys)].some(
          (n) =>
            (n.type === 'CallExpression' && n.callee.type === 'Identifier' && LIST_FILTER.test(n.callee.name)) ||
            (n.type === 'Property' && !n.computed && LIST_FILTER.test(memberKey(n))),
        ),
      ),
  );
}

/** A property's key as written (`in`, `$in`). */
const memberKey = (p: TSESTree.Property): string =>
  p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? String(p.key.value) : '';

/** A call that hands one of `rows` (or a value worked out from one) to a bus, a socket, a mailer or a queue (src/knowledge/hand-offs.ts). */
const handsOn = (node: Node, rows: ReadonlySet<string>, keys: Keys): boolean =>
  node.type === 'CallExpression' &&
  node.callee.type === 'MemberExpression' &&
  HAND_OFF_METHODS.has(memberPropertyName(node.callee) ?? '') &&
  node.arguments.some((argument) => uses(argument, rows, keys));

/**
 * Whether `update`, after the rows `read` returned, is a prune: one delete (or one update stamping
 * fixed values), the only awaited work on the rows, and nothing of them used after it.
 */
export function prunesOnly(read: PendingRead, update: DatabaseCall, loop: Node | undefined, scope: Node, keys: Keys): boolean {
  if (update.type !== 'CallExpression' || (loop && update.range[0] < loop.range[1])) return false;
  // What the rows are known by in between: their name, and the names worked out from them after the read.
  const worked = rowNames(scope, read.node.range[1], resultNames(read.node), keys);
  const chain = methodChain(update);
  const deletes = chain.some((link) => link.name !== undefined && DELETE_METHODS.has(link.name));
  if (!deletes && !(picksByList(chain, keys) && stampsOnly(chain, worked, keys))) return false;
  // The names an update picks its rows by; a link after them (`.returning({ id: table.id })`) names no row.
  const deleted = deletes
    ? argumentNames(update, keys)
    : chain.flatMap((link) => argumentNames(link.call, keys)).filter((n) => worked.has(n));
  const rows = new Set([...resultNames(read.node), ...deleted]);
  for (const node of descendants(scope, keys)) {
    if (node.range[0] < read.node.range[1] || (node.range[0] >= update.range[0] && node.range[1] <= update.range[1])) continue;
    if (node.type === 'AwaitExpression' && node.argument !== update && uses(node, worked, keys)) return false;
    // A row handed on before the delete (`pubsub.publish(topic, event)`, not awaited): work on it.
    if (node.range[1] <= update.range[0] && handsOn(node, worked, keys)) return false;
    if (node.range[0] >= update.range[1] && isValueName(node) && rows.has(node.name)) return false;
  }
  return true;
}
