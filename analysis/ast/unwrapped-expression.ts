// The expression under TypeScript-only wrappers and parentheses-like nodes (`x as T`, `x!`,
// `x satisfies T`, `<T>x`, `a?.b` chains), and optionally `await x` (a value awaited is still that
// value for most rules: `const nc = await connect()`). One helper for every rule.
import type { TSESTree } from '@typescript-eslint/utils';

type ValueWrapper =
  | TSESTree.TSAsExpression
  | TSESTree.TSNonNullExpression
  | TSESTree.TSSatisfiesExpression
  | TSESTree.TSTypeAssertion
  | TSESTree.ChainExpression;

/** A node whose value is its `expression`'s: TypeScript-only syntax and `a?.b` chains. */
export function isValueWrapper(node: TSESTree.Node): node is ValueWrapper {
  return (
    node.type === 'TSAsExpression' ||
    node.type === 'TSNonNullExpression' ||
    node.type === 'TSSatisfiesExpression' ||
    node.type === 'TSTypeAssertion' ||
    node.type === 'ChainExpression'
  );
}

export function unwrapExpression(node: TSESTree.Node, options: { await?: boolean } = {}): TSESTree.Node {
  let current = node;
  for (;;) {
    if (isValueWrapper(current)) {
      current = current.expression;
    } else if (options.await && current.type === 'AwaitExpression') {
      current = current.argument;
    } else {
      return current;
    }
  }
}

/**
 * The inverse: the outermost expression that is still `node`'s value — climbing through the same
 * wrappers and `await` — and optionally through member reads of it (`(await q).rows`).
 */
export function wrappingExpression(node: TSESTree.Node, options: { members?: boolean } = {}): TSESTree.Node {
  let current = node;
  for (let parent = current.parent; parent; parent = current.parent) {
    if (
      parent.type === 'AwaitExpression' ||
      isValueWrapper(parent) ||
      (options.members && parent.type === 'MemberExpression' && parent.object === current)
    ) {
      current = parent;
    } else {
      return current;
    }
  }
  return current;
}

/** `await call`: the value is awaited where it is made (through the wrappers above). */
export function isAwaited(node: TSESTree.Node): boolean {
  let current = node;
  while (current.parent && isValueWrapper(current.parent)) current = current.parent;
  return current.parent?.type === 'AwaitExpression';
}
