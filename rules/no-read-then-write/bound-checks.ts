// `if (row.balance < amount) throw …`: a bound check on a value read, remembered on its read so
// the `atomic-counters` codemod can move the bound into the write's filter.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { Taint } from './model.js';

const COMPARISONS = new Set(['<', '<=', '>', '>=']);

/** Remembers `node` on the read of each value its test compares (`a < b`, through `&&` / `||`). */
export function noteBoundChecks(node: TSESTree.IfStatement, taintOf: (node: TSESTree.Node) => Taint | null): void {
  const visit = (test: TSESTree.Node): void => {
    const expr = unwrapExpression(test);
    if (expr.type === 'LogicalExpression') {
      visit(expr.left);
      visit(expr.right);
    } else if (expr.type === 'BinaryExpression' && COMPARISONS.has(expr.operator)) {
      const t = (expr.left.type === 'PrivateIdentifier' ? null : taintOf(expr.left)) ?? taintOf(expr.right);
      if (t && !t.read.boundChecks.includes(node)) t.read.boundChecks.push(node);
    }
  };
  visit(node.test);
}
