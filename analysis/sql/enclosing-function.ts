// The function a node sits in (the scope "same function" means for SQL transaction checks).
import type { TSESTree } from '@typescript-eslint/utils';

export type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export function isFunctionNode(node: TSESTree.Node | undefined): node is FunctionNode {
  return node?.type === 'FunctionDeclaration' || node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';
}

/** The nearest function around `node`, or `undefined` at module level. */
export function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return undefined;
}

/** A readable name for a function: its id, or the variable / property / method it is bound to. */
export function functionNameOf(fn: FunctionNode | undefined): string | undefined {
  if (!fn) return undefined;
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (
    (parent?.type === 'Property' || parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') &&
    parent.key.type === 'Identifier'
  )
    return parent.key.name;
  return undefined;
}
