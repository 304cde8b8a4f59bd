// A read and its write inside one section the database serialises, handed as a callback:
//
//   await this.database.lock(async () => { const n = await …first(); await n.update({ counter: n.counter + 1 }); });
//   await prisma.$transaction(async (tx) => { … read … write … }, { isolationLevel: 'Serializable' });
//
// A lock taken by name around the callback (lock-gate-first.ts tells a lock call from an in-process
// mutex) lets one holder at a time read and write back; a SERIALIZABLE transaction makes the second
// writer fail instead of losing the first one's update. Either way nothing is lost. The callback is
// the nearest function around the read, and the write must sit in it too.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { SERIALIZABLE_ISOLATION } from '../../src/knowledge/isolation-levels.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { contains } from './control-flow.js';
import { isLockCall } from './lock-gate-first.js';
import { transactionCallbackOf } from './transaction-locks.js';

/** Whether `read` and `write` run in one callback handed to a named lock, or to a SERIALIZABLE transaction. */
export function inSerialisedSection(read: TSESTree.Node, write: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const callback = enclosingFunction(read);
  const call = callback?.parent;
  if (!callback || call?.type !== 'CallExpression' || !call.arguments.includes(callback as TSESTree.CallExpressionArgument)) return false;
  if (!contains(callback, write)) return false;
  if (isLockCall(call)) return true;
  return (
    transactionCallbackOf(read) === callback &&
    call.arguments.some((argument) => argument !== callback && SERIALIZABLE_ISOLATION.test(sourceCode.getText(argument)))
  );
}
