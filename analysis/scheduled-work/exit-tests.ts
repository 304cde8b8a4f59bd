// The two halves of an early exit at the top of work (`if (!ok) return;`): the negated test and
// the statement that leaves. Shared by the guard check and the lease gate.
import type { TSESTree } from '@typescript-eslint/utils';

/** `!x`, `x === false`, `false == x`, `x !== true`: the negated operand, else undefined. */
export function negated(test: TSESTree.Expression): TSESTree.Node | undefined {
  if (test.type === 'UnaryExpression' && test.operator === '!') return test.argument;
  if (
    test.type === 'BinaryExpression' &&
    (test.operator === '===' || test.operator === '==' || test.operator === '!==' || test.operator === '!=')
  ) {
    const want = test.operator === '===' || test.operator === '==' ? false : true;
    const isLiteral = (n: TSESTree.Node): boolean => n.type === 'Literal' && n.value === want;
    if (isLiteral(test.right)) return test.left;
    if (isLiteral(test.left)) return test.right;
  }
  return undefined;
}

/** `return`, `continue`, `throw`, `break`, or a block ending in one. */
export function exits(statement: TSESTree.Statement): boolean {
  if (
    statement.type === 'ReturnStatement' ||
    statement.type === 'ContinueStatement' ||
    statement.type === 'ThrowStatement' ||
    statement.type === 'BreakStatement'
  )
    return true;
  return statement.type === 'BlockStatement' && statement.body.length > 0 && exits(statement.body[statement.body.length - 1]!);
}
