// Whether a SQL text is sent inside a transaction opened by hand: after `BEGIN` (or `START
// TRANSACTION`, TypeORM's `startTransaction()`) sent earlier on the same client in the same function
// (`await client.query('BEGIN'); await client.query('SELECT … FOR UPDATE NOWAIT', …)`). The
// transaction then holds what the statement locks until it commits or rolls back.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { descendants } from './descendants.js';
import { enclosingFunction } from './enclosing-function.js';
import { transactionControlOf } from './transaction-controls.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Whether `text` (a SQL argument, as written) is sent by a call whose client began a transaction earlier in the same function. */
export function isSentAfterBegin(text: TSESTree.Node, sourceCode: SourceCode): boolean {
  const call = text.parent;
  if (call?.type !== 'CallExpression' || call.arguments[0] !== text || call.callee.type !== 'MemberExpression') return false;
  const fn = enclosingFunction(call);
  if (!fn) return false;
  const client = sourceCode.getText(call.callee.object);
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    if (node.range[0] >= call.range[0]) break;
    if (node.type !== 'CallExpression') continue;
    const control = transactionControlOf(node, sourceCode);
    if (control?.kind === 'begin' && control.client === client && control.fn === fn) return true;
  }
  return false;
}
