// A transaction that first takes a transaction-scoped advisory lock holds every other transaction
// taking that lock until it commits: what it then reads and writes back is one writer's at a time.
//
//   await prisma.$transaction(async (tx) => {
//     await takeTransactionAdvisoryLocks(tx, [`login:${key}`]);   // or tx.$executeRaw`SELECT pg_advisory_xact_lock(…)`
//     const row = await tx.signInAttempt.findUnique({ where: { key } });
//     await tx.signInAttempt.update({ where: { key }, data: { count: row.count + 1 } });
//   });
//
// The lock is the SQL sent in place, or a helper handed the transaction: one of the file or the
// project that sends it (or hands its own transaction parameter on to one that does, a call deep),
// or, when the helper cannot be read, one whose name says it takes a transaction advisory lock.
// A lock taken after the read, outside the transaction holding it, or the `try` form is no guard.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { sqlSentBy } from '../../analysis/sql/sql-text.js';
import { projectFunctionIn, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { chainRoot } from '../../analysis/ast/chain-root.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { TRANSACTION_ADVISORY_LOCK_SQL, TRANSACTION_LOCK_NAME_WORDS } from '../../src/knowledge/lock-libraries.js';
import { transactionCallbackOf } from './transaction-locks.js';

type Node = TSESTree.Node;
type Keys = DetectContext['sourceCode']['visitorKeys'];

/** How many helpers deep a lock is looked for (`lockAccount(tx, id)` → `acquireAdvisoryLocks(tx, keys)`). */
const MAX_DEPTH = 2;
const ADVISORY_KEYWORD = /advisory_xact_lock/i;

/** `takeTransactionAdvisoryLocks`, `xactAdvisoryLockFor`: a lock word and a transaction advisory lock's word. */
function namedForTransactionLock(name: string | undefined): boolean {
  if (name === undefined) return false;
  const words = nameWords(name);
  return words.some((w) => w === 'lock' || w === 'locks') && words.some((w) => TRANSACTION_LOCK_NAME_WORDS.includes(w));
}

/** The position of the argument that is the transaction `handle`, or -1. */
const handlePosition = (call: TSESTree.CallExpression, handle: string): number =>
  call.arguments.findIndex((a) => a.type === 'Identifier' && a.name === handle);

/** Whether a call before the read takes a transaction advisory lock on `handle`, in place or in a helper (`within`: the helper being read). */
function takesLock(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  handle: string,
  context: DetectContext,
  within: ProjectFunction | undefined,
  depth: number,
): boolean {
  const sourceCode = within?.module.sourceCode ?? context.sourceCode;
  const sql = sqlSentBy(node, sourceCode as never, ADVISORY_KEYWORD);
  if (sql === 'absent') return false;
  // Sent on the transaction itself (`tx.$executeRaw…`, `trx.raw(…)`): the outer client's lock ends with its own statement.
  if (sql)
    return (
      chainRoot(node.type === 'CallExpression' ? node.callee : node.tag, { calls: true })?.name === handle &&
      TRANSACTION_ADVISORY_LOCK_SQL.test(sql.sql.text)
    );
  if (node.type !== 'CallExpression') return false;
  const at = handlePosition(node, handle);
  if (at < 0) return false;
  const target = within ? projectFunctionIn(within, node.callee) : projectFunctionOf(context, node.callee);
  if (!target) {
    const callee = node.callee;
    return namedForTransactionLock(callee.type === 'Identifier' ? callee.name : memberPropertyName(callee));
  }
  const param = target.fn.params[at];
  if (depth <= 1 || param?.type !== 'Identifier' || !target.fn.body) return false;
  return locksBefore(target.fn.body, undefined, param.name, context, target, depth - 1);
}

/** Whether a call in `body` (before `before`, when given) takes a transaction advisory lock on `handle`. */
function locksBefore(
  body: Node,
  before: number | undefined,
  handle: string,
  context: DetectContext,
  within: ProjectFunction | undefined,
  depth: number,
): boolean {
  const keys: Keys = (within?.module.sourceCode ?? context.sourceCode).visitorKeys;
  for (const node of descendants(body, keys, isFunctionNode)) {
    if (before !== undefined && node.range[0] >= before) break;
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    if (takesLock(node, handle, context, within, depth)) return true;
  }
  return false;
}

/** Whether `read` runs in a transaction callback that took a transaction advisory lock before it. */
export function readUnderTransactionLock(read: Node, context: DetectContext): boolean {
  const callback = transactionCallbackOf(read);
  const param = callback?.params[0];
  if (!callback?.body || param?.type !== 'Identifier') return false;
  return locksBefore(callback.body, read.range[0], param.name, context, undefined, MAX_DEPTH);
}
