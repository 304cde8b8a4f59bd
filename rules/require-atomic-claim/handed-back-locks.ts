// A row lock handed back: `SELECT … FOR UPDATE SKIP LOCKED` (Knex / Kysely `.forUpdate().skipLocked()`)
// sent outside any transaction (short-locks.ts), in a function that returns the rows to its caller
// (`return result.rows`). The lock was let go when the statement returned: whatever the caller does
// with the rows — publish them, mark them by id — a second replica selected the same rows. Reported
// with no update in sight: the lock says the rows were meant to be claimed. A read on a client the
// caller hands in, or one whose transaction is still open when it returns, keeps its lock.
import type { TSESLint } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { methodChain } from '../../analysis/sql/method-chain.js';
import { sqlSentBy } from '../../analysis/sql/sql-text.js';
import { hasRowLockClause, parseSql, ROW_LOCK_METHODS } from '../../src/knowledge/sql.js';
import { isWord } from '../../src/knowledge/sql-tokens.js';
import type { PendingRead } from './claim-shapes.js';
import { resultNames, rootName } from './row-names.js';
import { lockEndsBeforeWork } from './short-locks.js';

/**
 * Where the read asks for row locks — the locking clause in its SQL (`FOR UPDATE SKIP LOCKED`), or
 * the lock link of its chain (`skipLocked`) — or `undefined` when it asks for none.
 */
function rowLockOf(read: PendingRead, sourceCode: Readonly<TSESLint.SourceCode>): Pick<PendingRead, 'reportNode' | 'loc'> | undefined {
  if (read.kind === 'builder') {
    const links = read.node.type === 'CallExpression' ? methodChain(read.node) : [];
    const lock = links.find((l) => ROW_LOCK_METHODS.has(l.name ?? ''));
    const callee = lock?.call.callee;
    return callee?.type === 'MemberExpression' ? { reportNode: callee.property, loc: undefined } : undefined;
  }
  const use = sqlSentBy(read.node, sourceCode, /select/i);
  if (!use || use === 'absent') return undefined;
  for (const { kind, tokens } of parseSql(use.sql.text)?.statements ?? []) {
    if (kind !== 'select' || !hasRowLockClause(tokens)) continue;
    // The clause's `FOR` (`FOR UPDATE`, `FOR NO KEY UPDATE`), else the statement's first word.
    const clause = tokens.find((t, i) => isWord(t, 'for') && isWord(tokens[i + 1], 'update', 'no')) ?? tokens[0];
    if (clause) return { reportNode: use.sql.node, loc: use.sql.locOf(clause.start, clause.end) };
  }
  return undefined;
}

/** A count of the rows (`rows.length`, `result.rowCount`): no rows handed back. */
const COUNT = /^(?:length|rowCount|count)$/;

/** Whether the function around the read returns its rows (`return rows`, `return result.rows`, `return await pool.query(…)`). */
function returnsRows(read: PendingRead): boolean {
  const fn = enclosingFunction(read.node);
  if (!fn) return false;
  const bound = resultNames(read.node);
  return returnedExpressions(fn).some((returned) => {
    const value = unwrapExpression(returned, { await: true });
    const holdsRead = value.range[0] <= read.node.range[0] && value.range[1] >= read.node.range[1];
    return (holdsRead || bound.includes(rootName(value) ?? '\0')) && !COUNT.test(memberPropertyName(value) ?? '');
  });
}

/** A pending read that locks its rows, lets the lock go at once and hands the rows back to its caller: the read, reported at its lock. */
export function handsBackLetGoLock(read: PendingRead, sourceCode: Readonly<TSESLint.SourceCode>): PendingRead | undefined {
  if (!returnsRows(read) || !lockEndsBeforeWork(read.node, sourceCode)) return undefined;
  const lock = rowLockOf(read, sourceCode);
  return lock && { ...read, ...lock };
}
