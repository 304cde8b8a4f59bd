// The expression under TypeScript-only wrappers and parentheses-like nodes: `(js as JetStreamClient)`,
// `js!`, `js satisfies X`, `<X>js`, and optionally `await x` (a value awaited is still that value
// for the rule's purpose: `const nc = await connect()`).
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
