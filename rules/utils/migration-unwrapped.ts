// The expression under TypeScript wrappers and parentheses (`x as T`, `x!`, `x satisfies T`, `<T>x`).
import type { TSESTree } from '@typescript-eslint/utils';

export function migrationUnwrapped(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.type === 'TSAsExpression' ||
    current.type === 'TSNonNullExpression' ||
    current.type === 'TSSatisfiesExpression' ||
    current.type === 'TSTypeAssertion' ||
    current.type === 'ChainExpression'
  ) {
    current = current.expression;
  }
  return current;
}

/** `name` of `a.name` / `a['name']`, or undefined. */
export function memberPropertyName(node: TSESTree.Node): string | undefined {
  if (node.type !== 'MemberExpression') return undefined;
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  if (node.computed && node.property.type === 'TemplateLiteral' && node.property.expressions.length === 0) return node.property.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The key name of an object property (`a`, `'a'`, `['a']`), or undefined. */
export function propertyKeyName(node: TSESTree.Property): string | undefined {
  if (!node.computed && node.key.type === 'Identifier') return node.key.name;
  if (node.key.type === 'Literal' && typeof node.key.value === 'string') return node.key.value;
  return undefined;
}
