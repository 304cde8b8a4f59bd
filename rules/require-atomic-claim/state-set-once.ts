// A row's state checked in JavaScript against the value the code then sets it to, so that the work
// in between happens once: `if (payment.status !== Status.done) { …; await repo.update(payment.id,
// { status: Status.done }); await credit(…) }`, or `if (order.state === 'paid') return;` before
// `update(…, { state: 'paid' })`, or `coupon.state = 'used'` then `coupon.save()`. Two deliveries of the same webhook (or two replicas) both read
// the state unset, both set it and both do the work. Only the value compared and the value written
// being the same says the check is there to run the work once. A check of another state (`if
// (order.status !== 'pending') return`, then `status: 'paid'`) is a transition: it is a claim only
// with work on its path (`transitionWithWork`); alone it validates the move.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isStatusLikeColumn } from '../../src/knowledge/sql.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { exits } from '../no-read-then-write/control-flow.js';
import { sqlOfCall } from '../../analysis/sql/sql-text.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** `row.flag`, `row?.flag`, `rows[0].flag` (the first row of a SQL result): the field's name when `node` is a field of the kept row. */
export function fieldOfRow(node: Node, row: string): string | undefined {
  const member = unwrapExpression(node);
  if (member.type !== 'MemberExpression') return undefined;
  let base = unwrapExpression(member.object);
  if (base.type === 'MemberExpression' && base.computed && base.property.type === 'Literal') base = unwrapExpression(base.object);
  return base.type === 'Identifier' && base.name === row ? memberPropertyName(member) : undefined;
}

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
  logical: '&&' | '||' = '&&',
): { column: string; value: string } | undefined {
  const value = unwrapExpression(test);
  if (value.type === 'LogicalExpression' && value.operator === logical)
    return (
      comparedState(value.left, row, operators, sourceCode, logical) ?? comparedState(value.right, row, operators, sourceCode, logical)
    );
  if (value.type !== 'BinaryExpression' || !operators.includes(value.operator)) return undefined;
  for (const [field, other] of [
    [value.left, value.right],
    [value.right, value.left],
  ] as const) {
    const column = fieldOfRow(field, row);
    const constant = constantText(other, sourceCode);
    if (column !== undefined && constant !== undefined && isStatusLikeColumn(column)) return { column, value: constant };
  }
  return undefined;
}

/** Callbacks run later, and failure paths (`catch`), set nothing on the path that did the check. */
const elsewhere = (node: Node): boolean => isFunctionNode(node) || node.type === 'CatchClause';

/** `row.column = <value>`: the state set on the loaded row, for its `save()`. */
function assignsTo(node: Node, row: string, column: string, value: Wanted, sourceCode: SourceCode): boolean {
  if (node.type !== 'AssignmentExpression' || node.operator !== '=' || node.left.type !== 'MemberExpression') return false;
  const object = unwrapExpression(node.left.object);
  return (
    object.type === 'Identifier' &&
    object.name === row &&
    memberPropertyName(node.left) === column &&
    matches(constantText(node.right, sourceCode), value)
  );
}

/** The constant a set must write: the one compared (`same`), or any other (`other`, a transition out of it). */
type Wanted = { same: string } | { other: string; writes: (call: TSESTree.CallExpression) => boolean };
const matches = (constant: string | undefined, wanted: Wanted): boolean =>
  constant !== undefined && ('same' in wanted ? constant === wanted.same : constant !== wanted.other);

/** The constant SQL sent by `call` sets `column` to (`UPDATE orders SET status = 'shipped' …` → `"shipped"`), in `constantText`'s form. */
function sqlSetConstant(call: TSESTree.CallExpression, column: string, sourceCode: SourceCode): string | undefined {
  const sql = sqlOfCall(call, sourceCode)?.sql.text;
  if (sql === undefined || !/^\s*update\b/i.test(sql)) return undefined;
  const set = new RegExp(String.raw`\bset\b[\s\S]*?["\`]?\b${column}\b["\`]?\s*=\s*'([^']*)'`, 'i').exec(sql);
  return set?.[1] === undefined ? undefined : JSON.stringify(set[1]);
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
  value: Wanted,
  sourceCode: SourceCode,
  saves: boolean,
): TSESTree.CallExpression | undefined {
  let assigned = false;
  for (const root of nodes) {
    for (const node of [root, ...descendants(root, sourceCode.visitorKeys, elsewhere)]) {
      if (saves && assignsTo(node, row, column, value, sourceCode)) assigned = true;
      if (node.type !== 'CallExpression') continue;
      if (assigned && savesRow(node, row)) return node;
      // SQL's text for a transition only: a same-value set in SQL is a running flag's (flag-claims.ts), reported on the set.
      if ('other' in value && matches(sqlSetConstant(node, column, sourceCode), value)) return node;
      // …and for a transition, only a call that writes the row (not `emit('login', { status: 'failed' })`).
      if ('other' in value && !value.writes(node)) continue;
      for (const argument of node.arguments) {
        if (isFunctionNode(argument)) continue;
        for (const inner of [argument, ...descendants(argument, sourceCode.visitorKeys, isFunctionNode)]) {
          if (inner.type !== 'Property' || inner.parent?.type !== 'ObjectExpression' || propertyKeyName(inner) !== column) continue;
          if (matches(constantText(inner.value, sourceCode), value)) return node;
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
  const set = checked && setsTo(leaves ? rest : [statement.consequent], row, checked.column, { same: checked.value }, sourceCode, leaves);
  return checked && set ? { column: checked.column, set, saved: savesRow(set, row) } : undefined;
}

/**
 * A transition out of the state checked, with work on its path: `if (order.status !== 'pending')
 * return;` (also `if (!order || …)`), or a block run when `order.status === 'pending'`, then the
 * state set to another constant (`{ status: 'paid' }`, or `order.status = 'paid'` and its `save()`)
 * and other work awaited before or after (`await charge(order)`). Two requests or workers both see
 * `pending`, both do the work and both set `paid`. Without work between (a bare publish of a draft)
 * both write the same state, and nothing is done twice.
 */
export function transitionWithWork(
  statement: TSESTree.Statement,
  rest: readonly TSESTree.Statement[],
  row: string,
  sourceCode: SourceCode,
  calls: { isWork: (call: TSESTree.CallExpression) => boolean; writes: (call: TSESTree.CallExpression, column: string) => boolean },
): { column: string; set: TSESTree.CallExpression; saved: boolean } | undefined {
  if (statement.type !== 'IfStatement') return undefined;
  const leaves = exits(statement.consequent);
  const checked = leaves
    ? comparedState(statement.test, row, ['!==', '!='], sourceCode, '||')
    : comparedState(statement.test, row, ['===', '=='], sourceCode);
  if (!checked) return undefined;
  const path = leaves ? rest : [statement.consequent];
  const writes = (call: TSESTree.CallExpression): boolean => calls.writes(call, checked.column);
  const set = setsTo(path, row, checked.column, { other: checked.value, writes }, sourceCode, true);
  if (!set) return undefined;
  const work = path.some((root) =>
    [root, ...descendants(root, sourceCode.visitorKeys, elsewhere)].some(
      (node) =>
        node.type === 'AwaitExpression' &&
        node.argument.type === 'CallExpression' &&
        node.argument !== set &&
        !(set.range[0] <= node.range[0] && node.range[1] <= set.range[1]) &&
        calls.isWork(node.argument),
    ),
  );
  return work ? { column: checked.column, set, saved: savesRow(set, row) } : undefined;
}
