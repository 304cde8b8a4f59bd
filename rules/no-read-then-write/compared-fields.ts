// The read fields a write's filter compares against their read values (`where: { id, version:
// row.version }`). A write that only applies when the row still holds what was read is a
// compare-and-set: with the rows-affected count checked, no update is lost.
import type { TSESTree } from '@typescript-eslint/utils';
import { taintOf, type TaintEnvironment } from './taint.js';
import { settled } from './pending-reads.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

const MAX_DEPTH = 12;

export function comparedFieldsOf(nodes: readonly TSESTree.Node[], env: TaintEnvironment): Set<string> {
  const fields = new Set<string>();
  const visit = (node: TSESTree.Node | null | undefined, depth: number): void => {
    if (!node || depth > MAX_DEPTH) return;
    const expr = unwrapExpression(node);
    switch (expr.type) {
      case 'ObjectExpression':
        for (const property of expr.properties) visit(property.type === 'Property' ? property.value : property.argument, depth + 1);
        return;
      case 'ArrayExpression':
        for (const element of expr.elements) visit(element, depth + 1);
        return;
      case 'CallExpression':
        for (const argument of expr.arguments) visit(argument, depth + 1);
        return;
      case 'LogicalExpression':
      case 'BinaryExpression':
        if (expr.left.type !== 'PrivateIdentifier') visit(expr.left, depth + 1);
        visit(expr.right, depth + 1);
        return;
      case 'SpreadElement':
        visit(expr.argument, depth + 1);
        return;
      default: {
        const taint = settled(taintOf(expr, env));
        if (taint && !taint.computed && taint.field !== null) fields.add(taint.field);
      }
    }
  };
  for (const node of nodes) visit(node, 0);
  return fields;
}
