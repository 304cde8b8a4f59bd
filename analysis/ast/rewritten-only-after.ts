// Whether a `let` still holds its first value where it is read: every other assignment of it comes
// later in the text and shares no loop with the read (`let last = await findLatest(); … last + 1 …
// last = await save(…)`). A loop around both could carry a later value back to the read.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ScopeVariable } from './scope-variable.js';
import { isLoopStatement } from './loop-statement.js';

/** Whether `node` sits in a loop that also holds `other` (within their function). */
function sharesLoop(node: TSESTree.Node, other: TSESTree.Node): boolean {
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === 'FunctionDeclaration' || up.type === 'FunctionExpression' || up.type === 'ArrowFunctionExpression') return false;
    if (isLoopStatement(up) && up.range[0] <= other.range[0] && other.range[1] <= up.range[1]) return true;
  }
  return false;
}

/** Whether every assignment of `variable` other than its declaration comes after `read` and shares no loop with it. */
export function rewrittenOnlyAfter(variable: ScopeVariable, declared: TSESTree.Node, read: TSESTree.Node): boolean {
  return variable.references.every(
    (r) =>
      !r.isWrite() ||
      r.identifier === declared ||
      (r.identifier.range[0] > read.range[1] && !sharesLoop(read, r.identifier as TSESTree.Node)),
  );
}
