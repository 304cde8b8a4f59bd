// Where a statement sits in the control flow of its function, for the taint engine: whether it
// runs only on some paths, and whether a branch always leaves.
import type { TSESTree } from '@typescript-eslint/utils';

/** Whether a branch ends by leaving (`throw`, `return`, `break`, `continue`). */
export function exits(statement: TSESTree.Statement): boolean {
  const last = statement.type === 'BlockStatement' ? statement.body[statement.body.length - 1] : statement;
  return (
    last?.type === 'ThrowStatement' ||
    last?.type === 'ReturnStatement' ||
    last?.type === 'BreakStatement' ||
    last?.type === 'ContinueStatement'
  );
}

export function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** Whether the block holding `node` holds `other` too (a node in a sibling branch is not on its way). */
export function blockHolds(node: TSESTree.Node, other: TSESTree.Node): boolean {
  let block: TSESTree.Node | undefined = node.parent;
  while (block && block.type !== 'BlockStatement' && block.type !== 'Program') block = block.parent;
  return block !== undefined && contains(block, other);
}

/** Whether `at` runs only once `check` passed: inside one of its branches, or after it when its branch leaves. */
export const passedCheck = (check: TSESTree.IfStatement, at: TSESTree.Node): boolean =>
  contains(check.consequent, at) ||
  (check.alternate !== null && contains(check.alternate, at)) ||
  (check.range[1] <= at.range[0] && exits(check.consequent));

export /** Whether `node` runs only on some paths of its function (in a branch, a loop body, a catch). */
function inBranch(node: TSESTree.Node): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'IfStatement':
        if (parent.test !== child) return true;
        break;
      case 'ConditionalExpression':
        if (parent.test !== child) return true;
        break;
      case 'LogicalExpression':
        if (parent.right === child) return true;
        break;
      case 'SwitchCase':
      case 'CatchClause':
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
        return true;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return false;
      default:
        break;
    }
  }
  return false;
}
