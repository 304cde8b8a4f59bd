// A schedule started only by a leader: every schedule the finding is about sits in (or is started
// only by) an exported function of its module, and every call of that function — in the module
// itself and in the modules of its package that import it — runs only where the work counts as
// guarded: after a leader or lock condition (`if (this.isLeader)`, `if (await tryLock())`, the
// answer of `pg_try_advisory_lock`), after a lock is taken (`await mutex.acquire();`), inside a
// guard or lock wrapper (`runExclusive(key, ttl, () => startDigests())`), or in a leader-election
// callback. One caller otherwise, or callers that cannot be read, keep the report — except for a job
// built stopped whose start function no caller in reach calls (startsOutOfSight). Asked only of a
// finding about to be reported: it may read the package's files (analysis/modules/importers.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { MIGRATE_LOCK_FUNCTIONS } from '../../src/knowledge/migrators.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { callsOfExport, usedAt, type FunctionUse } from '../../analysis/modules/importers.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { sqlTextOf } from '../../analysis/sql/sql-text-model.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { moduleWorkKnowledge } from '../../analysis/scheduled-work/effects-options.js';
import type { GuardLookup } from '../../analysis/scheduled-work/is-guarded.js';
import { exits, isLeaderEvent, scheduleGate } from '../../analysis/scheduled-work/schedule-gates.js';
import { exportedStarters, type ExportedStarter } from '../../analysis/scheduled-work/schedule-starters.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';
import { isFunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { callIntent } from '../../analysis/scheduled-work/work-intent.js';
import { nameWords } from '../../analysis/ast/name-words.js';

const NO_TELEMETRY: ReadonlySet<string> = new Set();

/** `held`: the call returns once the lock is held; `tried`: its answer says whether it is. */
type LockCall = 'held' | 'tried' | undefined;

/** Whether `node` (under `await`) takes a lock, a lease or a claim. */
function lockCall(sourceCode: SourceCode, node: TSESTree.Node, guards: GuardLookup): LockCall {
  const call = unwrapExpression(node, { await: true });
  if (call.type !== 'CallExpression') return undefined;
  if (guards(call)) return 'tried';
  const sql = (sqlTextOf(call.arguments[0], sourceCode)?.text ?? '').toLowerCase();
  // `pg_advisory_lock(…)` waits for the lock; `pg_try_advisory_lock(…)` answers whether it got it.
  const advisory = MIGRATE_LOCK_FUNCTIONS.find((lock) => sql.includes(`${lock}(`));
  if (advisory !== undefined) return nameWords(advisory).includes('try') ? 'tried' : 'held';
  if (callIntent(call, NO_TELEMETRY) !== 'coordinated') return undefined;
  const callee = call.callee.type === 'MemberExpression' ? call.callee.property : call.callee;
  return callee.type === 'Identifier' && nameWords(callee.name)[0] === 'try' ? 'tried' : 'held';
}

/** A condition that reads a lock's answer: it calls one, or reads a name (or a member of one) holding one's answer. */
function readsLock(sourceCode: SourceCode, test: TSESTree.Node, guards: GuardLookup): boolean {
  for (const node of descendants(test, sourceCode.visitorKeys)) {
    if (node.type === 'CallExpression' && lockCall(sourceCode, node, guards)) return true;
    if (node.type !== 'Identifier') continue;
    const variable = scopeVariable(sourceCode, node);
    const def = variable?.defs.length === 1 ? variable.defs[0]!.node : undefined;
    if (def?.type === 'VariableDeclarator' && def.init && lockCall(sourceCode, def.init, guards)) return true;
  }
  return false;
}

/** A statement before the call that takes a lock (`await lock.acquire()`) or leaves unless one is held. */
function lockedBefore(sourceCode: SourceCode, statement: TSESTree.Statement, guards: GuardLookup): boolean {
  if (statement.type === 'ExpressionStatement') return lockCall(sourceCode, statement.expression, guards) === 'held';
  return statement.type === 'IfStatement' && exits(statement.consequent) && readsLock(sourceCode, statement.test, guards);
}

/** A call that runs the function handed to it under a guard, a lock or on a leader-election event. */
function guardingCall(call: TSESTree.CallExpression, guards: GuardLookup): boolean {
  const kind = guards(call);
  return kind === 'wrapper' || kind === 'custom' || callIntent(call, NO_TELEMETRY) === 'coordinated' || isLeaderEvent(call);
}

/** Whether the use runs the function only under a lock, a guard or a leader condition of its own module. */
function useUnderGuard(sourceCode: SourceCode, use: FunctionUse, guards: GuardLookup): boolean {
  const { call } = use;
  if (use.handed && guardingCall(call, guards)) return true;
  if (scheduleGate(sourceCode, call) === 'leader') return true;
  let child: TSESTree.Node = call;
  for (let current: TSESTree.Node | undefined = call.parent; current; child = current, current = current.parent) {
    if (current.type === 'IfStatement' && child === current.consequent && readsLock(sourceCode, current.test, guards)) return true;
    if (current.type === 'BlockStatement' || current.type === 'Program') {
      const at = (current.body as TSESTree.Node[]).indexOf(child);
      if ((current.body as TSESTree.Statement[]).slice(0, at).some((s) => lockedBefore(sourceCode, s, guards))) return true;
    }
    // Inside a guard or lock wrapper: `runExclusive(key, ttl, () => start())`, `mutex.runExclusive(…)`.
    const wrapper: TSESTree.Node | undefined = current.parent;
    if (isFunctionLike(current) && wrapper?.type === 'CallExpression' && (wrapper.arguments as TSESTree.Node[]).includes(current))
      if (guardingCall(wrapper, guards)) return true;
  }
  return false;
}

/** The uses of the starter in its own module (calls, hand-offs to a call); undefined when it is used otherwise. */
function ownCalls(sourceCode: SourceCode, starter: ExportedStarter): FunctionUse[] | undefined {
  const calls: FunctionUse[] = [];
  for (const variable of declaredVariables(sourceCode, starter.declaration, starter.localName)) {
    for (const reference of variable.references) {
      if (reference.init) continue;
      const parent = reference.identifier.parent;
      if (parent?.type === 'ExportSpecifier') continue;
      const use = usedAt(reference.identifier);
      if (!use) return undefined;
      calls.push(use);
    }
  }
  return calls;
}

/**
 * A job built stopped (`new CronJob(expr, fn, null, false)`) and started only in `starter`: where it
 * is started decides where it runs. When no call of `starter` is in reach — none in the package, or
 * the package cannot be read (the file is read alone) — that place is out of sight, and a job its
 * author kept from starting on its own is not taken to start on every replica.
 */
function startsOutOfSight(own: readonly FunctionUse[], elsewhere: readonly unknown[] | undefined): boolean {
  return own.length === 0 && (elsewhere === undefined || elsewhere.length === 0);
}

function startedOnlyUnderGuardBy(context: DetectContext, starter: ExportedStarter, work: ScheduledWork): boolean {
  const own = ownCalls(context.sourceCode, starter);
  if (!own) return false;
  const elsewhere = callsOfExport(context, starter.exportedName);
  const node = work.schedulerNode;
  const builtStopped = node.range[0] < starter.fn.range[0] || node.range[1] > starter.fn.range[1];
  if (builtStopped && startsOutOfSight(own, elsewhere)) return true;
  if (!elsewhere) return false;
  const modules = [{ context, calls: own }, ...elsewhere.map((found) => ({ context: found.module.context, calls: found.calls }))];
  if (modules.every((m) => m.calls.length === 0)) return false;
  return modules.every(({ context: where, calls }) => {
    if (calls.length === 0) return true;
    const guards = moduleWorkKnowledge(where).guards;
    return calls.every((use) => useUnderGuard(where.sourceCode, use, guards));
  });
}

/** Whether `work` is started only by exported functions every caller of which runs under a guard. */
export function startedOnlyUnderGuard(context: DetectContext, work: ScheduledWork): boolean {
  const starters = exportedStarters(context.sourceCode, work);
  return starters !== undefined && starters.every((starter) => startedOnlyUnderGuardBy(context, starter, work));
}
