// A read made only after its function won a distributed lock: an earlier statement of a block around
// the read takes a lock or lease by name and leaves when it was not won —
//   const acquired = await tryAcquireWriterLock(db); if (!acquired) { …; return; }
//   if (!(await leases.take('checkpoint', ttl))) return;
// One holder at a time reads and writes back: a single writer. A lock taken after the read, one whose
// answer is not tested, or an in-process mutex (`mutex`, `semaphore`: not lock words here) is no gate.
import type { TSESTree } from '@typescript-eslint/utils';
import { HELD_LOCK_WORDS, IN_PROCESS_LOCK_WORDS } from '../../src/knowledge/lock-libraries.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { receiverName } from '../../analysis/ast/receiver-name.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { gatedValue } from '../../analysis/scheduled-work/exit-tests.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { isFunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** `tryAcquireWriterLock(db)`, `this.locks.acquire(key)`, `redlock.acquire([key], ttl)` (awaited or not). */
export function isLockCall(node: TSESTree.Node): boolean {
  const call = unwrapExpression(node, { await: true });
  if (call.type !== 'CallExpression') return false;
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  const receiver = callee.type === 'MemberExpression' ? receiverName(callee.object) : undefined;
  // `mutex.tryLock()`: a lock of this process only.
  if (receiver !== undefined && nameWords(receiver).some((w) => IN_PROCESS_LOCK_WORDS.includes(w))) return false;
  return [name, receiver].some((n) => n !== undefined && nameWords(n).some((w) => HELD_LOCK_WORDS.includes(w)));
}

/** Whether `statement` (followed by `next`) leaves unless a lock was won. */
function isLockGate(statement: TSESTree.Statement, next: TSESTree.Statement | undefined): boolean {
  const gated = gatedValue(statement, next);
  return gated !== undefined && isLockCall(gated);
}

/** Whether the read at `node` runs only after a lock gate of its own function. */
export function readAfterLockGate(node: TSESTree.Node): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && !isFunctionLike(child); child = current, current = current.parent) {
    if (current.type !== 'BlockStatement' && current.type !== 'Program') continue;
    const body = current.body as TSESTree.Statement[];
    const at = body.indexOf(child as TSESTree.Statement);
    for (let i = 0; i < at; i++) if (isLockGate(body[i]!, body[i + 1])) return true;
  }
  return false;
}
