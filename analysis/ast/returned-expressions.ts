// The expressions a function returns: an arrow's expression body, or the arguments of its own
// `return` statements (not those of functions or classes nested in it).
import type { TSESTree } from '@typescript-eslint/utils';

type Node = TSESTree.Node;

export function returnedExpressions(fn: TSESTree.FunctionLike): Node[] {
  if (!fn.body) return [];
  if (fn.body.type !== 'BlockStatement') return [fn.body];
  const out: Node[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'ReturnStatement') {
      if (node.argument) out.push(node.argument);
      return;
    }
    const nested =
      node.type === 'FunctionDeclaration' ||
      node.type === 'FunctionExpression' ||
      node.type === 'ArrowFunctionExpression' ||
      node.type === 'ClassBody';
    if (nested) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'parent') continue;
      for (const c of Array.isArray(child) ? child : [child]) if (c && typeof (c as Node).type === 'string') visit(c as Node);
    }
  };
  for (const statement of fn.body.body) visit(statement);
  return out;
}
