// A state moved inside a MongoDB transaction: the read of the row and the write of it both carry
// the transaction's session (`.session(session)`, `{ session }`). MongoDB transactions read a
// snapshot and do not wait on each other's writes: two that write one document conflict, and the
// second to write aborts (a WriteConflict; `withTransaction` runs it again, and the retry reads the
// state the first committed). So the second replica's move of the row is undone, not doubled.
//
// The session counts when the function was handed it (its caller's transaction), when a
// transaction is opened on it (`session.startTransaction()`, `session.withTransaction(…)`), or when
// it is a parameter of a transaction callback. A session with no transaction (`startSession()`
// alone) orders reads, and claims nothing.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { isOutermostCall, methodChain } from '../../analysis/sql/method-chain.js';
import { SESSION_KEY, SESSION_TRANSACTION_RUNNERS, SESSION_TRANSACTION_STARTS } from '../../src/knowledge/document-sessions.js';
import type { DatabaseCall } from './claim-shapes.js';
import { keyName } from './row-names.js';

const TRANSACTION_CALLS: ReadonlySet<string> = new Set([...SESSION_TRANSACTION_RUNNERS, ...SESSION_TRANSACTION_STARTS]);

/** The session a statement runs in: `.session(s)` in its chain, or `{ session: s }` among its arguments. */
function sessionOf(call: DatabaseCall): TSESTree.Identifier | undefined {
  if (call.type !== 'CallExpression' || !isOutermostCall(call)) return undefined;
  for (const link of methodChain(call)) {
    const [first] = link.call.arguments;
    if (link.name === SESSION_KEY && first?.type === 'Identifier') return first;
    for (const argument of link.call.arguments) {
      if (argument.type !== 'ObjectExpression') continue;
      for (const p of argument.properties)
        if (p.type === 'Property' && keyName(p) === SESSION_KEY && p.value.type === 'Identifier') return p.value;
    }
  }
  return undefined;
}

/** Whether the session is a transaction's: a parameter (the caller's or a transaction callback's), or one a transaction is opened on. */
function isTransactionSession(session: TSESTree.Identifier, context: DetectContext): boolean {
  const variable = scopeVariable(context.sourceCode, session);
  if (!variable) return false;
  if (variable.defs.some((d) => d.type === 'Parameter')) return true;
  return variable.references.some((ref) => {
    const member = ref.identifier.parent;
    return (
      member?.type === 'MemberExpression' &&
      member.object === ref.identifier &&
      member.parent?.type === 'CallExpression' &&
      member.parent.callee === member &&
      TRANSACTION_CALLS.has(memberPropertyName(member) ?? '')
    );
  });
}

/** Whether the read and the write of the row run in one MongoDB transaction's session. */
export function inMongoTransaction(read: DatabaseCall, write: DatabaseCall, context: DetectContext): boolean {
  const session = sessionOf(read);
  if (!session || sessionOf(write)?.name !== session.name) return false;
  return isTransactionSession(session, context);
}
