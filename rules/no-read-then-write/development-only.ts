// A write that runs only outside production: in a branch taken in development
// (`if (process.env.NODE_ENV !== 'production') { … }`), or after a guard that leaves in production
// (`if (nodeEnv === 'production') throw error;` — a non-atomic fallback refused there), or in a
// development case of a `switch` on the run environment. No
// production deployment reaches it, so no two replicas race it.
import type { TSESTree } from '@typescript-eslint/utils';
import { inDevelopmentCase, isDevelopmentOnlyTest } from '../../analysis/scheduled-work/development-gate.js';
import { enclosingFunction, isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { exits } from './control-flow.js';

/** `if (<production>) { …; throw … }`: a statement that leaves when the process runs in production. */
const leavesInProduction = (statement: TSESTree.Node): boolean =>
  statement.type === 'IfStatement' && exits(statement.consequent) && isDevelopmentOnlyTest(statement.test, false);

/** Whether `node` runs only when the process is not in production, told inside its own function. */
export function developmentOnly(node: TSESTree.Node): boolean {
  for (let child = node, parent = node.parent; parent && !isFunctionNode(child); child = parent, parent = parent.parent) {
    if (parent.type === 'IfStatement' && child !== parent.test && isDevelopmentOnlyTest(parent.test, child === parent.consequent))
      return true;
    if (parent.type === 'BlockStatement' && parent.body.slice(0, parent.body.indexOf(child as TSESTree.Statement)).some(leavesInProduction))
      return true;
  }
  return inDevelopmentCase(node, enclosingFunction(node));
}
