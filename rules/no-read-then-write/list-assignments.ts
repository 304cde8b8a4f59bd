// A list field of a loaded document made into a new list in JavaScript and assigned back to the
// same field (`wallet.coupons = wallet.coupons.filter(…)`, or through a local: `const kept =
// wallet.coupons.filter(…); wallet.coupons = kept`), then saved: the save sends the whole list
// (`$set: { coupons: [...] }`), so an element another request added or removed since the load is
// lost. Only a list made by a list method (`filter`, `map`, `concat`, `toSorted`, …) or spread into a
// longer one (`[...wallet.coupons, coupon]`) counts, not
// the field copied as it is nor a value passed through (`name.trim()`).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { LIST_CHANGING_METHODS, LIST_COPY_METHODS } from '../../src/knowledge/loaded-value-forms.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import type { FieldChange, Taint } from './model.js';

const LIST_MAKING: ReadonlySet<string> = new Set([...LIST_COPY_METHODS, ...LIST_CHANGING_METHODS]);

/** `x.filter(…)`, `x.map(…)`: a call of a list-making method. */
const makesList = (node: TSESTree.Node): boolean =>
  node.type === 'CallExpression' && LIST_MAKING.has(memberPropertyName(unwrapExpression(node.callee)) ?? '');

/** `[...row.list, item]`: a new list spread from the old one with more elements. */
const spreadList = (node: TSESTree.Node): boolean =>
  node.type === 'ArrayExpression' && node.elements.length > 1 && node.elements.some((e) => e?.type === 'SpreadElement');

/** Whether `value` is a list made by a list method or spread into a longer one: the expression itself, or a `const` bound to one. */
function madeList(value: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const expr = unwrapExpression(value);
  if (makesList(expr) || spreadList(expr)) return true;
  if (expr.type !== 'Identifier') return false;
  const definition = scopeVariable(sourceCode, expr)?.defs[0];
  const declarator = definition?.node;
  if (declarator?.type !== 'VariableDeclarator' || declarator.parent.kind !== 'const' || !declarator.init) return false;
  const init = unwrapExpression(declarator.init);
  return makesList(init) || spreadList(init);
}

/**
 * The change when `node` (`row.list = …`, not compound) assigns a list made from the same loaded
 * field of the same row (`carried`, the value's taint; `owner`, the row's) back to that field.
 */
export function listAssignedBack(
  node: TSESTree.AssignmentExpression,
  target: TSESTree.MemberExpression,
  carried: Taint | null,
  owner: Taint | null,
  sourceCode: Readonly<TSESLint.SourceCode>,
): FieldChange | null {
  const field = memberPropertyName(target);
  if (!carried || carried.computed || !owner || owner.computed || owner.field !== null) return null;
  if (field === undefined || carried.field !== field || carried.read !== owner.read || !madeList(node.right, sourceCode)) return null;
  return { field, node, operator: null, operand: null, readField: field };
}
