// A lock taken after the read, around the work on the row (`order.lock(async () => …)`, a model's
// own lock method; `lockUntilResolved('expense-' + expense.id, async () => …)`, a per-item mutex),
// holds a second replica off only once it is inside: the row it read before the lock may have
// been acted on meanwhile. It is a claim when, inside the lock and before the update, the work
// reads the row again (`await expense.reload()`, `Model.findByPk(row.id)`, a lookup of what the
// work records for the row) and tests what it finds: the second replica then sees the first one's
// change and leaves. A lock around the work with no re-read, or a re-read nothing tests, is no claim.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { isOutermostCall, methodChain } from '../../analysis/sql/method-chain.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { ROW_RE_READ_METHODS } from '../../src/knowledge/orm-reads-writes.js';
import { LOCK_WORDS } from '../../src/knowledge/per-replica.js';
import { READ_METHODS } from '../../src/knowledge/sql.js';
import { takesLock, type GuardQuestion } from './held-under-guard.js';
import type { ActedOn } from './not-a-claim.js';
import { mentionsAny, resultNames } from './row-names.js';

type Node = TSESTree.Node;
type Keys = Parameters<typeof descendants>[1];

const RE_READS: ReadonlySet<string> = new Set([...READ_METHODS, ...ROW_RE_READ_METHODS]);

/** A call that takes a lock: the guard and lock calls `held-under-guard.ts` knows, or a callee named for one (`lockUntilResolved`, `withMutex`). */
function locks(call: TSESTree.CallExpression, question: GuardQuestion, isGuard: (call: TSESTree.CallExpression) => boolean): boolean {
  const name = call.callee.type === 'Identifier' ? call.callee.name : memberPropertyName(call.callee);
  if (name !== undefined && nameWords(name).some((w) => LOCK_WORDS.includes(w))) return true;
  return takesLock(call, question, isGuard);
}

/** Inside `body`, before `update`: a re-read of the row (`names`) whose answer a test after it reads. */
function reReadThenTested(body: Node, update: Node, names: readonly string[], keys: Keys): boolean {
  const reReads: TSESTree.CallExpression[] = [];
  const tests: Node[] = [];
  for (const node of descendants(body, keys)) {
    if (node.range[0] >= update.range[0]) break;
    if (node.type === 'CallExpression' && node.range[1] <= update.range[0] && isOutermostCall(node) && mentionsAny(node, names, keys)) {
      if (methodChain(node).some((l) => l.name !== undefined && RE_READS.has(l.name))) reReads.push(node);
    }
    if (node.type === 'IfStatement' || node.type === 'ConditionalExpression') tests.push(node.test);
    if (node.type === 'LogicalExpression') tests.push(node.left);
  }
  return reReads.some((reRead) => {
    const seen = [...names, ...resultNames(reRead)];
    return tests.some((test) => test.range[0] >= reRead.range[1] && test.range[1] <= update.range[0] && mentionsAny(test, seen, keys));
  });
}

/** Whether `update` runs in a callback of a lock taken after the read, which re-reads the row and tests it first. */
export function reCheckedUnderLock(
  region: ActedOn,
  update: Node,
  question: GuardQuestion,
  isGuard: (call: TSESTree.CallExpression) => boolean,
): boolean {
  const keys = question.context.sourceCode.visitorKeys;
  for (let node = update.parent; node && node !== region.region; node = node.parent) {
    if (!isFunctionNode(node)) continue;
    const call = node.parent;
    if (call?.type !== 'CallExpression' || !call.arguments.some((a) => a === node) || call.range[0] < region.after) continue;
    if (locks(call, question, isGuard) && reReadThenTested(node.body, update, region.names, keys)) return true;
  }
  return false;
}
