// The static text of a command line given to exec/spawn/execa: string literals, template
// quasis and array elements, joined with spaces (`spawn('npx', ['prisma', 'migrate', 'deploy'])`).
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

export function migrationCommandText(nodes: readonly TSESTree.Node[]): string {
  const parts: string[] = [];
  const visit = (node: TSESTree.Node, depth: number): void => {
    if (depth > 3) return;
    const value = unwrapExpression(node);
    if (value.type === 'Literal' && typeof value.value === 'string') parts.push(value.value);
    else if (value.type === 'TemplateLiteral') parts.push(value.quasis.map((q) => q.value.cooked ?? '').join(' '));
    else if (value.type === 'ArrayExpression') {
      for (const element of value.elements) if (element && element.type !== 'SpreadElement') visit(element, depth + 1);
    } else if (value.type === 'BinaryExpression' && value.operator === '+') {
      visit(value.left, depth + 1);
      visit(value.right, depth + 1);
    }
  };
  for (const node of nodes) visit(node, 0);
  return parts.join(' ');
}
