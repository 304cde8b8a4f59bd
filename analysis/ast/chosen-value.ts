// The expression a value ends up as when it is one branch of a choice: `top ? top.n + 1 : 0`,
// `(x + 1) || 1`, `custom ?? query`, `x as number`. What the choice is given to (a name, a
// property, an argument) receives this value, whichever branch is taken.
import type { TSESTree } from '@typescript-eslint/utils';

/** `node`, or the outermost conditional / logical / `as` expression it is a branch of (not the test of a conditional). */
export function chosenValue(node: TSESTree.Node): TSESTree.Node {
  let value = node;
  while (
    (value.parent?.type === 'ConditionalExpression' && value.parent.test !== value) ||
    value.parent?.type === 'LogicalExpression' ||
    value.parent?.type === 'TSAsExpression'
  )
    value = value.parent;
  return value;
}
