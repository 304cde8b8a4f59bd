// Whether an expression is a parameter of the function it appears in: `(fn, ms) =>
// setInterval(fn, ms)` only forwards someone else's work (a clock or timer wrapper); the
// schedule that matters is where the wrapper is called with real work.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable } from '@eslint-community/eslint-utils';

type Variable = { defs: Array<{ type: string }> };

/** Whether `node` is an identifier bound to a parameter of an enclosing function. */
export function isForwardedParameter(node: TSESTree.Node | undefined, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (node?.type !== 'Identifier') return false;
  let variable: Variable | null;
  try {
    variable = findVariable(sourceCode.getScope(node) as never, node as never) as unknown as Variable | null;
  } catch {
    return false;
  }
  return variable?.defs.length === 1 && variable.defs[0]?.type === 'Parameter';
}
