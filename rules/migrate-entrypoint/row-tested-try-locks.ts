// A try-lock whose answer is tested on the row, not on the value: `const r = await client.query('SELECT
// pg_try_advisory_lock(42)')`, then `if (!r.rows[0]) throw …`. The query returns one row whatever the
// answer (`{ pg_try_advisory_lock: false }` when another run holds the lock), and a row object is always
// truthy: the test never fails, and the run goes on without the lock while another one migrates. The
// value is a column of that row (`r.rows[0].pg_try_advisory_lock`, `rows[0]?.locked`).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { answerOf } from '../../analysis/scheduled-work/lease-gate.js';
import { triesLock } from '../../analysis/scheduled-work/try-lock-gate.js';
import { propertyKeyName, memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Node = TSESTree.Node;

/** `x[0]` (also `x?.[0]`): the first element of `x`. */
const isFirstOf = (node: Node | undefined, object: Node): node is TSESTree.MemberExpression =>
  node?.type === 'MemberExpression' &&
  node.object === object &&
  node.computed &&
  node.property.type === 'Literal' &&
  node.property.value === 0;

/** The node a value is tested as, through a `?.` chain: `!x`, `if (x)`, `x ? a : b`, `x && …` in either. */
function isTestedAsIs(node: Node): boolean {
  const value = node.parent?.type === 'ChainExpression' ? node.parent : node;
  const parent = value.parent;
  if (parent?.type === 'UnaryExpression') return parent.operator === '!';
  if (parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') return parent.test === value;
  return parent?.type === 'LogicalExpression' && isTestedAsIs(parent);
}

/** The `rows[0]` nodes, tested as they are, of the rows an identifier reference stands for (`r` of `r.rows`, or `rows` itself). */
function rowTests(reference: TSESTree.Identifier, holdsRows: boolean): TSESTree.MemberExpression[] {
  const rows = holdsRows
    ? reference
    : reference.parent?.type === 'MemberExpression' &&
        reference.parent.object === reference &&
        memberPropertyName(reference.parent) === 'rows'
      ? reference.parent
      : undefined;
  const first = rows?.parent;
  return rows && isFirstOf(first, rows) && isTestedAsIs(first) ? [first] : [];
}

/** The tests of the first row of a try-lock's result (`!r.rows[0]`, `if (rows[0])`) where a column of it was meant. */
export function rowTestedTryLocks(calls: readonly TSESTree.CallExpression[], sourceCode: SourceCode): TSESTree.MemberExpression[] {
  const out: TSESTree.MemberExpression[] = [];
  for (const call of calls) {
    if (!triesLock(call, sourceCode)) continue;
    const holder = answerOf(call).parent;
    if (holder?.type !== 'VariableDeclarator') continue;
    // `const r = await …` (its `rows`), or `const { rows } = await …`.
    const bound: { id: TSESTree.Identifier; holdsRows: boolean }[] = [];
    if (holder.id.type === 'Identifier') bound.push({ id: holder.id, holdsRows: false });
    if (holder.id.type === 'ObjectPattern')
      for (const p of holder.id.properties)
        if (p.type === 'Property' && propertyKeyName(p) === 'rows' && p.value.type === 'Identifier')
          bound.push({ id: p.value, holdsRows: true });
    for (const { id, holdsRows } of bound)
      for (const reference of scopeVariable(sourceCode, id)?.references ?? [])
        if (reference.identifier !== id) out.push(...rowTests(reference.identifier as TSESTree.Identifier, holdsRows));
  }
  return out;
}
