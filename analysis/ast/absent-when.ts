// Which outcome of a test means a value is missing: `!row`, `row == null`, `row === undefined` are
// true when it is; `row`, `row !== null` false. Asked by find-or-create claims and by cache fills
// on a miss, each with its own idea of which expression holds the value (`decides`).
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from './unwrapped-expression.js';

type Node = TSESTree.Node;

/** Which value of `test` means the value `decides` recognises is absent: `true`, `false`, or unknown. */
export function absentWhen(test: Node, decides: (node: Node) => boolean): boolean | undefined {
  const t = unwrapExpression(test, { await: true });
  if (t.type === 'UnaryExpression' && t.operator === '!') {
    const inner = absentWhen(t.argument, decides);
    return inner === undefined ? undefined : !inner;
  }
  if (t.type === 'BinaryExpression' && ['==', '===', '!=', '!=='].includes(t.operator)) {
    const nullish = (n: Node) => (n.type === 'Literal' && n.value === null) || (n.type === 'Identifier' && n.name === 'undefined');
    const other = nullish(t.right) ? t.left : nullish(t.left) ? t.right : undefined;
    return other && decides(other) ? t.operator.startsWith('=') : undefined;
  }
  return decides(t) && t.type !== 'LogicalExpression' && t.type !== 'BinaryExpression' ? false : undefined;
}
