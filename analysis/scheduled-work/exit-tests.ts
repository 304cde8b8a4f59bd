// The two halves of an early exit at the top of work (`if (!ok) return;`): the negated test and
// the statement that leaves. Shared by the guard check, the lease gate and the lock gate before a read.
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

/**
 * The value a statement gates what follows on, leaving when it is falsy: `if (!X) return;` gives `X`;
 * `const k = X;` followed by `if (!k) return;` gives `X`. Else undefined.
 */
export function gatedValue(statement: TSESTree.Statement, next: TSESTree.Statement | undefined): TSESTree.Node | undefined {
  if (statement.type === 'IfStatement') {
    const operand = negated(statement.test);
    return operand !== undefined && exits(statement.consequent) ? operand : undefined;
  }
  if (statement.type !== 'VariableDeclaration' || statement.declarations.length !== 1) return undefined;
  const declarator = statement.declarations[0]!;
  if (declarator.id.type !== 'Identifier' || !declarator.init) return undefined;
  if (next?.type !== 'IfStatement' || !exits(next.consequent)) return undefined;
  const operand = negated(next.test);
  return operand?.type === 'Identifier' && operand.name === declarator.id.name ? declarator.init : undefined;
}
