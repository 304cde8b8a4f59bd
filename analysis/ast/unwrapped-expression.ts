// The expression under TypeScript-only wrappers and parentheses-like nodes (`x as T`, `x!`,
// `x satisfies T`, `<T>x`, `a?.b` chains), and optionally `await x` (a value awaited is still that
// value for most rules: `const nc = await connect()`). One helper for every rule.
import type { TSESTree } from '@typescript-eslint/utils';

export function unwrapExpression(node: TSESTree.Node, options: { await?: boolean } = {}): TSESTree.Node {
  let current = node;
  for (;;) {
    if (
      current.type === 'TSAsExpression' ||
      current.type === 'TSNonNullExpression' ||
      current.type === 'TSSatisfiesExpression' ||
      current.type === 'TSTypeAssertion' ||
      current.type === 'ChainExpression'
    ) {
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
      parent.type === 'TSAsExpression' ||
      parent.type === 'TSNonNullExpression' ||
      parent.type === 'TSSatisfiesExpression' ||
      parent.type === 'TSTypeAssertion' ||
      parent.type === 'ChainExpression' ||
      (options.members && parent.type === 'MemberExpression' && parent.object === current)
    ) {
      current = parent;
    } else {
      return current;
    }
  }
  return current;
}
