// `this.ensureWallet(tx, id)` inside a method of an object literal (`export const Payouts = {
// async ensureWallet() {…}, async payout() {…} }`): `this` is that object, so the method called is
// its sibling property. A service written as an object of methods is as common as a class.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

type FunctionValue = TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

const keyName = (property: TSESTree.Property): string | undefined =>
  property.computed
    ? undefined
    : property.key.type === 'Identifier'
      ? property.key.name
      : property.key.type === 'Literal'
        ? String(property.key.value)
        : undefined;

/** The sibling method `callee` (`this.name`) names when its `this` is an object literal's method; undefined otherwise. */
export function objectLiteralMethodOf(callee: TSESTree.Node): FunctionValue | undefined {
  const node = unwrapExpression(callee);
  if (node.type !== 'MemberExpression' || unwrapExpression(node.object).type !== 'ThisExpression') return undefined;
  const name = memberPropertyName(node);
  if (name === undefined) return undefined;
  // Arrows keep the `this` of the function around them; the first other function binds it.
  let fn: TSESTree.Node | undefined = node.parent;
  while (fn && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration') fn = fn.parent;
  const property = fn?.parent;
  if (property?.type !== 'Property' || property.value !== fn || property.parent.type !== 'ObjectExpression') return undefined;
  for (const sibling of property.parent.properties) {
    if (sibling.type !== 'Property' || keyName(sibling) !== name) continue;
    const value = sibling.value;
    return value.type === 'FunctionExpression' || value.type === 'ArrowFunctionExpression' ? value : undefined;
  }
  return undefined;
}
