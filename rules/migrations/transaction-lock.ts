// Whether the run holds a transaction-level advisory lock: `pg_advisory_xact_lock(…)` sent between
// `BEGIN` and `COMMIT` on the same client in one function, or on the client a transaction callback
// receives (`knex.transaction((trx) => …)`, `sql.begin((sql) => …)`, `prisma.$transaction((tx) => …)`).
// The transaction keeps one server connection — through a transaction pooler too — and the lock
// until it ends, so pods starting together wait for each other as with a session lock on a pinned
// client. The same call outside a transaction is released when its own statement ends: no lock.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { XACT_ADVISORY_LOCK_FUNCTIONS } from '../../src/knowledge/sql.js';
import {
  isBetweenBeginAndCommit,
  isTransactionCallbackClient,
  transactionControlOf,
  type TransactionControl,
} from '../../analysis/sql/transaction-controls.js';

type SourceCode = DetectContext['sourceCode'];

const XACT_LOCK_SQL = new RegExp(`\\b(?:${XACT_ADVISORY_LOCK_FUNCTIONS.join('|')})\\s*\\(`, 'i');

/** The query call or tagged template that sends a SQL string as its text (`client.query('…')`, `sql`…``). */
function senderOf(text: TSESTree.Node): TSESTree.CallExpression | TSESTree.TaggedTemplateExpression | undefined {
  const parent = text.parent;
  if (parent?.type === 'TaggedTemplateExpression' && parent.quasi === text) return parent;
  if (parent?.type === 'CallExpression' && parent.arguments[0] === text && parent.callee.type === 'MemberExpression') return parent;
  return undefined;
}

export function locksInTransaction(
  strings: ReadonlyArray<{ node: TSESTree.Node; text: string }>,
  calls: readonly TSESTree.CallExpression[],
  sourceCode: SourceCode,
): boolean {
  const senders = strings.filter((s) => XACT_LOCK_SQL.test(s.text)).map((s) => senderOf(s.node));
  if (!senders.some(Boolean)) return false;
  const controls = calls.map((call) => transactionControlOf(call, sourceCode)).filter((c): c is TransactionControl => c !== undefined);
  return senders.some((sender) => {
    if (!sender) return false;
    const client = sender.type === 'TaggedTemplateExpression' ? sender.tag : (sender.callee as TSESTree.MemberExpression).object;
    return isTransactionCallbackClient(client, sourceCode) || isBetweenBeginAndCommit(sender, sourceCode.getText(client), controls);
  });
}
