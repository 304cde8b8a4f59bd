// Whether a read of pending rows already runs under a lock or a claim, so no second replica can
// read the same rows at the same time: the read sits in a callback handed to a guard or lock
// (`runExclusive(key, ttl, async () => …)`, `withLock(…)`), or a call earlier in the same function
// takes one — a replica-guard guard or an in-house one from settings, a lock or lease by name, a
// Redis `SET key value NX`, `pg_advisory_xact_lock`, a checked conditional update (`updateMany({
// where: { id, nextRunAt: schedule.nextRunAt } })` whose count is tested), or a project function
// that does one of these (analysis/modules: the other module's own imports decide) or claims a row
// with a checked conditional update (`cross-file-claim.ts`) and whose answer is used.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction, isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { sqlSentBy } from '../../analysis/sql/sql-text.js';
import { projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { effectsOfProjectFunction } from '../../analysis/scheduled-work/cross-file-work.js';
import { moduleWorkKnowledge } from '../../analysis/scheduled-work/effects-options.js';
import { isConditionalSet } from '../../analysis/scheduled-work/lease-gate.js';
import { callIntent } from '../../analysis/scheduled-work/work-intent.js';
import { XACT_ADVISORY_LOCK_FUNCTIONS } from '../../src/knowledge/sql.js';
import { rowUpdateOf, type ClaimVocabulary } from './claim-shapes.js';
import { isResultUsed } from './row-names.js';
import { claimsRowConditionally } from './cross-file-claim.js';

type Node = TSESTree.Node;

const NO_TELEMETRY: ReadonlySet<string> = new Set();
const XACT_LOCK = new RegExp(XACT_ADVISORY_LOCK_FUNCTIONS.join('|'), 'i');

export interface GuardQuestion {
  context: DetectContext;
  vocabulary: ClaimVocabulary;
}

/** Asks, once per file, what the file's guard calls are (replica-guard's, and the in-house ones from settings). */
export function guardLookup(context: DetectContext): (call: TSESTree.CallExpression) => boolean {
  let guards: ((call: TSESTree.CallExpression) => unknown) | undefined;
  return (call) => {
    guards ??= moduleWorkKnowledge(context).guards;
    const kind = guards(call);
    return kind !== undefined && kind !== 'per-replica';
  };
}

/** Whether a call takes a lock, lease or claim (see the file's header). */
export function takesLock(
  call: TSESTree.CallExpression,
  question: GuardQuestion,
  isGuard: (call: TSESTree.CallExpression) => boolean,
): boolean {
  if (isGuard(call) || callIntent(call, NO_TELEMETRY) === 'coordinated' || isConditionalSet(call)) return true;
  const { context, vocabulary } = question;
  const sql = sqlSentBy(call, context.sourceCode, XACT_LOCK);
  if (sql && sql !== 'absent' && XACT_LOCK.test(sql.sql.text)) return true;
  const update = rowUpdateOf(call, context.sourceCode, vocabulary);
  if (update?.conditional && update.countChecked) return true;
  const target = projectFunctionOf(context, call.callee);
  if (target === undefined) return false;
  return (
    effectsOfProjectFunction(target).coordinated ||
    setsKeyIfAbsent(target) ||
    (isResultUsed(call, context.sourceCode) && claimsRowConditionally(target))
  );
}

/** A project lock helper written on Redis (`redis.set(key, 1, { NX: true, PX: ttl })`, in it or a closure of it). */
function setsKeyIfAbsent(target: ProjectFunction): boolean {
  for (const node of descendants(target.fn.body, target.module.sourceCode.visitorKeys))
    if (node.type === 'CallExpression' && isConditionalSet(node)) return true;
  return false;
}

type IsGuard = (call: TSESTree.CallExpression) => boolean;

/** Whether a call in `root` (not in a function nested in it) that lies in [`from`, `to`) and `also` accepts takes a lock or claim. */
function lockTakenIn(
  root: Node,
  from: number,
  to: number,
  question: GuardQuestion,
  isGuard: IsGuard,
  also?: (call: Node) => boolean,
): boolean {
  for (const inner of descendants(root, question.context.sourceCode.visitorKeys, isFunctionNode)) {
    if (inner.range[0] >= to) break;
    if (inner.type !== 'CallExpression' || inner.range[0] < from || inner.range[1] > to) continue;
    if ((also?.(inner) ?? true) && takesLock(inner, question, isGuard)) return true;
  }
  return false;
}

/** Whether `read` runs under a lock or claim taken around it or before it in the functions around it. */
export function heldUnderGuard(read: Node, question: GuardQuestion, isGuard: IsGuard): boolean {
  for (let node = read.parent; node; node = node.parent) {
    if (!isFunctionNode(node)) continue;
    const around = node.parent;
    if (around?.type === 'CallExpression' && around.arguments.some((a) => a === node) && takesLock(around, question, isGuard)) return true;
    if (lockTakenIn(node.body, node.body.range[0], read.range[0], question, isGuard)) return true;
    if (handedToLock(node, question, isGuard)) return true;
  }
  return false;
}

/**
 * A function handed by name to a call in the same file that takes a lock (`runCronJob('digest',
 * run, ttl)` with the project's `runCronJob` taking a Redis `SET NX` lock, `withLock(key,
 * sendReminders)`): what it reads runs under that lock.
 */
function handedToLock(fn: Node, question: GuardQuestion, isGuard: IsGuard): boolean {
  const declarator = fn.parent?.type === 'VariableDeclarator' && fn.parent.init === fn ? fn.parent : undefined;
  const owner = fn.type === 'FunctionDeclaration' ? fn : declarator;
  if (!owner) return false;
  const variables = question.context.sourceCode.getDeclaredVariables(owner);
  return variables.some((variable) =>
    variable.references.some((reference) => {
      const call = reference.identifier.parent;
      return (
        call?.type === 'CallExpression' && call.arguments.some((a) => a === reference.identifier) && takesLock(call, question, isGuard)
      );
    }),
  );
}

/**
 * Whether the acted-on row is claimed before `update` marks it: a call in the work region, after
 * the read, that mentions the row and takes a claim — a checked conditional transition
 * (`UPDATE … WHERE id = $1 AND status = 'pending'` whose row count decides), a per-row guard (`claimOnce('job:' + job.id, ttl)`),
 * or a project function that does one (`if (!(await store.markRunning(job.id))) continue;`); also
 * inside a callback of the work that holds the update (`db.transaction(async (tx) => { claim; … })`).
 */
export function claimedBefore(
  region: Node,
  from: number,
  update: Node,
  mentionsRow: (call: Node) => boolean,
  question: GuardQuestion,
  isGuard: IsGuard,
): boolean {
  if (lockTakenIn(region, from, update.range[0], question, isGuard, mentionsRow)) return true;
  // The update in a callback inside the work (a transaction's): the claim before it in that callback.
  const callback = enclosingFunction(update);
  if (!callback || callback.range[0] < Math.max(region.range[0], from) || callback.range[1] > region.range[1]) return false;
  return lockTakenIn(callback.body, callback.body.range[0], update.range[0], question, isGuard, mentionsRow);
}
