// A read and its write inside one section the database serialises, handed as a callback:
//
//   await this.database.lock(async () => { const n = await …first(); await n.update({ counter: n.counter + 1 }); });
//   await prisma.$transaction(async (tx) => { … read … write … }, { isolationLevel: 'Serializable' });
//
// A lock taken by name around the callback (lock-gate-first.ts tells a lock call from an in-process
// mutex) lets one holder at a time read and write back; a SERIALIZABLE transaction makes the second
// writer fail instead of losing the first one's update. Either way nothing is lost. The callback is
// the nearest function around the read, and the write must sit in it too. So is a read and write on
// one connection after it opened a SERIALIZABLE transaction in SQL (`await client.query('BEGIN
// ISOLATION LEVEL SERIALIZABLE')`), in a block around both, not committed or rolled back between.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { SERIALIZABLE_BEGIN, SERIALIZABLE_ISOLATION, TRANSACTION_END } from '../../src/knowledge/isolation-levels.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { blockHolds, contains } from './control-flow.js';
import { isLockCall } from './lock-gate-first.js';
import { transactionCallbackOf } from './transaction-locks.js';

/** Whether `read` and `write` run in one callback handed to a named lock, or to a SERIALIZABLE transaction. */
export function inSerialisedSection(read: TSESTree.Node, write: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (afterSerializableBegin(read, write, sourceCode)) return true;
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

/** The SQL statement a call sends as its first argument's plain string, and the text of its receiver (`client`). */
function statementOf(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): { sql: string; on: string } | undefined {
  if (node.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(node.callee);
  const first = node.arguments[0] && unwrapExpression(node.arguments[0]);
  if (callee.type !== 'MemberExpression' || !first) return undefined;
  const sql =
    first.type === 'Literal' && typeof first.value === 'string'
      ? first.value
      : first.type === 'TemplateLiteral' && first.expressions.length === 0
        ? (first.quasis[0]!.value.cooked ?? undefined)
        : undefined;
  return sql === undefined ? undefined : { sql, on: sourceCode.getText(callee.object) };
}

/** Whether the write's connection opened a SERIALIZABLE transaction before the read, in a block around both, still open at the write. */
function afterSerializableBegin(read: TSESTree.Node, write: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const fn = enclosingFunction(read);
  const on = write.type === 'CallExpression' ? statementOf(write, sourceCode)?.on : undefined;
  if (!fn?.body || on === undefined || !contains(fn, write) || !SERIALIZABLE_ISOLATION.test(sourceCode.getText(fn.body))) return false;
  let begun: TSESTree.Node | undefined;
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    if (node.range[0] >= write.range[0]) break;
    const statement = statementOf(node, sourceCode);
    if (!statement || statement.on !== on) continue;
    if (SERIALIZABLE_BEGIN.test(statement.sql) && node.range[1] <= read.range[0] && blockHolds(node, write)) begun = node;
    else if (begun && TRANSACTION_END.test(statement.sql)) begun = undefined;
  }
  return begun !== undefined;
}
