// Whether to ask at once if a helper call is a read (pending-reads.ts), rather than follow the
// code after it as if it were one: a call found to read nothing leaves that code unfollowed, but
// the question (a function looked up, maybe in another module) costs about as much as following
// a short stretch of code. Either way the findings are the same; only the cost differs.
import type { TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';

/** Characters of a function left after a helper call past which asking about the helper costs less than following them. */
const LONG_CODE = 1500;

/** Whether much code follows `node` in its function, or no function holds it (what it binds reaches every function after it). */
export function longCodeAfter(node: TSESTree.Node): boolean {
  const fn = enclosingFunction(node);
  return !fn || fn.range[1] - node.range[1] > LONG_CODE;
}
