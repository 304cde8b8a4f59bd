// A lock holder's heartbeat: after this process took a lock or lease (earlier in the same
// function, or in a method of the same class), it keeps a timer whose handle says so
// (`this.heartbeat = setInterval(…)`, `heartbeatInterval = setInterval(…)`) and whose work names
// the lock it renews (`UPDATE locks SET expires_at = …`, `heartbeat_at`). Only the holder runs
// it, and it renews what that holder owns: per replica by design. A timer whose work does not name
// the lock (it sends the digests itself), or kept where nothing was acquired, stays work.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { HEARTBEAT_HANDLE_WORDS, LOCK_ACQUIRE_VERBS, LOCK_ROW_WORDS, LOCK_WORDS } from '../../src/knowledge/per-replica.js';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';
import { callIntent } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';
import { isItemClaim } from './item-claim.js';
import { isFunctionLike, type FunctionLike } from './work-function.js';
import { functionNameOf, isFunctionNode } from '../sql/enclosing-function.js';

const NO_TELEMETRY: ReadonlySet<string> = new Set();

/** `this.heartbeat = setInterval(…)`, `const keepAlive = setInterval(…)`: the name the timer's handle is kept under. */
function handleName(schedule: TSESTree.Node): string | undefined {
  const parent = schedule.parent;
  if (parent?.type === 'AssignmentExpression' && parent.right === schedule) {
    if (parent.left.type === 'Identifier') return parent.left.name;
    if (parent.left.type === 'MemberExpression') return memberPropertyName(parent.left);
  }
  if (parent?.type === 'VariableDeclarator' && parent.init === schedule && parent.id.type === 'Identifier') return parent.id.name;
  return undefined;
}

/** `tryAcquireLockAndMigrate()`, `leases.acquire(…)`, `INSERT INTO locks … ON CONFLICT DO NOTHING` tested: a lock taken. */
function acquiresLock(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  if (callIntent(call, NO_TELEMETRY) === 'coordinated') return true;
  const name = call.callee.type === 'Identifier' ? call.callee.name : memberPropertyName(call.callee);
  const words = name === undefined ? [] : nameWords(name);
  if (words.some((w) => LOCK_ACQUIRE_VERBS.includes(w)) && words.some((w) => LOCK_WORDS.includes(w))) return true;
  return isItemClaim(call, sourceCode);
}

/** A lock taken before `schedule` in its function, or anywhere in its class. */
function acquiredBefore(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  let owner: TSESTree.Node | undefined;
  for (let node = schedule.parent; node; node = node.parent) {
    if (!owner && isFunctionLike(node)) owner = node;
    if (node.type === 'ClassBody') {
      owner = node;
      break;
    }
  }
  if (!owner) return false;
  const skipWork = (child: TSESTree.Node): boolean => child === work;
  for (const node of descendants(owner, sourceCode.visitorKeys, skipWork)) {
    if (owner.type !== 'ClassBody' && node.range[0] >= schedule.range[0]) break;
    if (node.type === 'CallExpression' && node !== schedule && acquiresLock(sourceCode, node)) return true;
  }
  return false;
}

/** `lock(name)`, `acquireLock(key)`, `obtainLease(id)`: a function named for taking a lock (a verb, then the lock). */
function namesLockTaking(name: string | undefined): boolean {
  const words = name === undefined ? [] : nameWords(name);
  return (LOCK_ACQUIRE_VERBS.includes(words[0] ?? '') || words[0] === 'lock') && words.some((w) => LOCK_WORDS.includes(w));
}

/**
 * A timer armed, its handle kept, inside the function that takes the lock (`async lock(name) { …
 * insert(); self.intervals[name] = setInterval(refresh, ms) }`), whose work reads what that function
 * was given (the lock's name): the holder extending its own lock, once per lock taken.
 */
function armedByLockTaker(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  const parent = schedule.parent;
  if (parent?.type !== 'AssignmentExpression' && parent?.type !== 'VariableDeclarator') return false;
  for (let node = schedule.parent; node; node = node.parent) {
    if (!isFunctionNode(node) || !namesLockTaking(functionNameOf(node))) continue;
    const params = new Set(node.params.flatMap((p) => (p.type === 'Identifier' ? [p.name] : [])));
    return [...descendants(work.body, sourceCode.visitorKeys)].some((n) => n.type === 'Identifier' && params.has(n.name));
  }
  return false;
}

/** Whether the scheduled `work` is the heartbeat of a lock this process holds. */
export function renewsHeldLock(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  if (armedByLockTaker(sourceCode, schedule, work)) return true;
  const handle = handleName(schedule);
  if (handle === undefined || !nameWords(handle).some((w) => HEARTBEAT_HANDLE_WORDS.includes(w))) return false;
  if (!nameWords(sourceCode.getText(work.body)).some((w) => LOCK_ROW_WORDS.includes(w))) return false;
  return acquiredBefore(sourceCode, schedule, work);
}
