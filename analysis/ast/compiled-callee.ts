// Compilers and bundlers call an imported function as `(0, module.f)(…)`, and tag a template the
// same way (`(0, sql_1.sql)`…``), so that it runs without `this`: the function is the last
// expression of the sequence.
import type { TSESTree } from '@typescript-eslint/utils';

/** The callee or tag under a compiled `(0, module.f)` form; any other node as it is. */
export function compiledCallee(node: TSESTree.Expression): TSESTree.Expression {
  return node.type === 'SequenceExpression' ? (node.expressions[node.expressions.length - 1] ?? node) : node;
}
