// Names of member properties and object keys as written (`a.name`, `a['name']`, `{ 'a': 1 }`).
import type { TSESTree } from '@typescript-eslint/utils';

/** `name` of `a.name` / `a['name']`, or undefined. */
export function memberPropertyName(node: TSESTree.Node): string | undefined {
  if (node.type !== 'MemberExpression') return undefined;
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  if (node.computed && node.property.type === 'TemplateLiteral' && node.property.expressions.length === 0)
    return node.property.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The key name of an object property (`a`, `'a'`, `['a']`), or undefined. */
export function propertyKeyName(node: TSESTree.Property): string | undefined {
  if (!node.computed && node.key.type === 'Identifier') return node.key.name;
  if (node.key.type === 'Literal' && typeof node.key.value === 'string') return node.key.value;
  return undefined;
}
