// A file of the repository's `scripts/` folder is taken to be run by hand (a seed, a backfill, an
// operator's watch), and its timers to run in no replica. One whose top level arms a repeating
// timer (`setInterval(dispatch, 3000);` as a statement of the module) is no one-off: it is a process
// that runs until it is stopped, deployed beside the service as a worker of its own, and judged.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

/** The repeating timer a long-running script arms at its top level. */
const REPEATING_TIMER = 'setInterval';

/** `setInterval(…)`, `timer = setInterval(…)`, `const timer = setInterval(…)`: a repeating timer armed by the statement. */
function armsTimer(node: TSESTree.Node | null | undefined): boolean {
  const value = node && unwrapExpression(node);
  if (value?.type === 'AssignmentExpression') return armsTimer(value.right);
  return value?.type === 'CallExpression' && value.callee.type === 'Identifier' && value.callee.name === REPEATING_TIMER;
}

/** Whether a statement of the module itself arms a repeating timer. */
export function armsRepeatingTimerAtTop(program: TSESTree.Program): boolean {
  return program.body.some(
    (statement) =>
      (statement.type === 'ExpressionStatement' && armsTimer(statement.expression)) ||
      (statement.type === 'VariableDeclaration' && statement.declarations.some((d) => armsTimer(d.init))),
  );
}
