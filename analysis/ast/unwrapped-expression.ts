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
