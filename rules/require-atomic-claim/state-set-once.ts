// A row's state checked in JavaScript against the value the code then sets it to, so that the work
// in between happens once: `if (payment.status !== Status.done) { …; await repo.update(payment.id,
// { status: Status.done }); await credit(…) }`, or `if (order.state === 'paid') return;` before
// `update(…, { state: 'paid' })`, or `coupon.state = 'used'` then `coupon.save()`. Two deliveries of the same webhook (or two replicas) both read
// the state unset, both set it and both do the work. Only the value compared and the value written
// being the same says the check is there to run the work once: a check of another state (`if
// (post.status !== 'draft') throw`, then `status: 'published'`) validates a transition.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isStatusLikeColumn } from '../../src/knowledge/sql.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { exits } from '../no-read-then-write/control-flow.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** A constant a state is compared with or set to: a literal, or an enum member (`Status.done`). */
function constantText(node: Node, sourceCode: SourceCode): string | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'Literal' && typeof value.value === 'string') return JSON.stringify(value.value);
  if (value.type === 'MemberExpression' && !value.computed && unwrapExpression(value.object).type === 'Identifier')
    return sourceCode.getText(value);
  return undefined;
}

/** `row.status <op> CONST` (either side) in `test`, through `&&`: the state's name and the constant's text. */
function comparedState(
  test: Node,
  row: string,
  operators: readonly string[],
  sourceCode: SourceCode,
): { column: string; value: string } | undefined {
  const value = unwrapExpression(test);
  if (value.type === 'LogicalExpression' && value.operator === '&&')
    return comparedState(value.left, row, operators, sourceCode) ?? comparedState(value.right, row, operators, sourceCode);
  if (value.type !== 'BinaryExpression' || !operators.includes(value.operator)) return undefined;
  for (const [field, other] of [
    [value.left, value.right],
    [value.right, value.left],
  ] as const) {
    const member = unwrapExpression(field);
    if (member.type !== 'MemberExpression' || unwrapExpression(member.object).type !== 'Identifier') continue;
    if ((unwrapExpression(member.object) as TSESTree.Identifier).name !== row) continue;
    const column = memberPropertyName(member);
    const constant = constantText(other, sourceCode);
    if (column !== undefined && constant !== undefined && isStatusLikeColumn(column)) return { column, value: constant };
  }
  return undefined;
}

/** Callbacks run later, and failure paths (`catch`), set nothing on the path that did the check. */
const elsewhere = (node: Node): boolean => isFunctionNode(node) || node.type === 'CatchClause';

/** `row.column = <value>`: the state set on the loaded row, for its `save()`. */
function assignsTo(node: Node, row: string, column: string, value: string, sourceCode: SourceCode): boolean {
  if (node.type !== 'AssignmentExpression' || node.operator !== '=' || node.left.type !== 'MemberExpression') return false;
  const object = unwrapExpression(node.left.object);
  return (
    object.type === 'Identifier' &&
    object.name === row &&
    memberPropertyName(node.left) === column &&
    constantText(node.right, sourceCode) === value
  );
}

/** `row.save()`: the row written with what was set on it. */
function savesRow(node: TSESTree.CallExpression, row: string): boolean {
  const callee = unwrapExpression(node.callee);
  if (callee.type !== 'MemberExpression' || memberPropertyName(callee) !== 'save') return false;
  const object = unwrapExpression(callee.object);
  return object.type === 'Identifier' && object.name === row;
}

/**
 * The first call among `nodes`, on their own path, whose arguments set `column` to the constant
 * `value` (`{ status: Status.done }`), or (`saves`) the row's `save()` after `row.column = value`.
 */
function setsTo(
  nodes: readonly Node[],
  row: string,
  column: string,
  value: string,
  sourceCode: SourceCode,
  saves: boolean,
): TSESTree.CallExpression | undefined {
  let assigned = false;
  for (const root of nodes) {
    for (const node of [root, ...descendants(root, sourceCode.visitorKeys, elsewhere)]) {
      if (saves && assignsTo(node, row, column, value, sourceCode)) assigned = true;
      if (node.type !== 'CallExpression') continue;
      if (assigned && savesRow(node, row)) return node;
      for (const argument of node.arguments) {
        if (isFunctionNode(argument)) continue;
        for (const inner of [argument, ...descendants(argument, sourceCode.visitorKeys, isFunctionNode)]) {
          if (inner.type !== 'Property' || inner.parent?.type !== 'ObjectExpression' || propertyKeyName(inner) !== column) continue;
          if (constantText(inner.value, sourceCode) === value) return node;
        }
      }
    }
  }
  return undefined;
}

/**
 * The write that sets the state `statement` checks to the value it compares with: inside an `if
 * (row.state !== V) { … }` block, or after an `if (row.state === V) return;` (there also the
 * row's own `save()` after the state was assigned: `saved`). Undefined otherwise.
 */
export function stateSetOnce(
  statement: TSESTree.Statement,
  rest: readonly TSESTree.Statement[],
  row: string,
  sourceCode: SourceCode,
): { column: string; set: TSESTree.CallExpression; saved: boolean } | undefined {
  if (statement.type !== 'IfStatement') return undefined;
  const leaves = exits(statement.consequent);
  const checked = comparedState(statement.test, row, leaves ? ['===', '=='] : ['!==', '!='], sourceCode);
  // The row's own `save()` only after a check that leaves: inside `if (row.state !== V) { … }` it is
  // as often a row this request made, marked once on its failure path.
  const set = checked && setsTo(leaves ? rest : [statement.consequent], row, checked.column, checked.value, sourceCode, leaves);
  return checked && set ? { column: checked.column, set, saved: savesRow(set, row) } : undefined;
}
