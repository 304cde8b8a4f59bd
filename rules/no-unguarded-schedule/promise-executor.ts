// Whether a node is inside the executor of `new Promise((resolve) => …)`: a `setTimeout` loop
// there waits (sleeps in slices, polls until a condition) and settles the promise; it is how
// code waits, not a job that runs each period.
import type { TSESTree } from '@typescript-eslint/utils';

/** Whether `node` is inside a function passed as the executor of `new Promise(…)`. */
export function isInPromiseExecutor(node: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (current.type !== 'ArrowFunctionExpression' && current.type !== 'FunctionExpression') continue;
    const parent = current.parent;
    if (
      parent?.type === 'NewExpression' &&
      parent.arguments[0] === current &&
      parent.callee.type === 'Identifier' &&
      parent.callee.name === 'Promise'
    )
      return true;
  }
  return false;
}
