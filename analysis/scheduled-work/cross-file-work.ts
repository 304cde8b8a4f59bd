// Scheduled work followed into the project's other modules (analysis/modules): a work function
// imported from another file, or a call in the work to an imported function or an injected
// service's method, is judged by what that function does — its guard, lock or lease, its
// deduplicated enqueue, its per-replica intent, its shared writes — a few calls deep. What cannot
// be found (a package, a value picked at run time) stays unknown. Also: a reschedule helper of
// the project (`scheduleNext(poll)` whose body is `setTimeout(fn, ms)`) makes a `setTimeout` loop.
import { scopeVariable } from '../ast/scope-variable.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../detect-context.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';
import { defineFunctionFact, factFollower, projectFunctionOf, type ProjectFunction } from '../modules/index.js';
import { moduleWorkKnowledge, type ModuleWorkKnowledge } from './effects-options.js';
import { workEffects, type Effects, type EffectsOptions } from './external-effects.js';
import { isGuarded } from './is-guarded.js';
import { lockHelperFollower } from './in-process-lock-helper.js';
import { claimAnswerOf } from './claim-answer.js';
import { locksRowsInCallersTransaction } from './row-lock-helper.js';
import { isFunctionLike, resolveWorkFunction, type FunctionLike } from './work-function.js';
import { referenceIntent } from './work-intent.js';

/** What nothing is known about: it may reach outside, and nothing says it writes shared state. */
export const UNKNOWN_EFFECTS: Readonly<Effects> = { external: true, coordinated: false, sharedWrite: false, perReplica: false };

/**
 * A work handed over by reference whose function is out of reach (`setInterval(pruneRooms, ms,
 * client)`, its module missing or a package's): judged by its name, as the call `() =>
 * pruneRooms(client)` would be; otherwise unknown.
 */
export function effectsOfReferenceByName(expression: TSESTree.Node | undefined, telemetry: ReadonlySet<string>): Readonly<Effects> {
  const node = expression && unbound(expression);
  if (!node || (node.type !== 'Identifier' && node.type !== 'MemberExpression')) return UNKNOWN_EFFECTS;
  const intent = referenceIntent(node, telemetry);
  if (intent === 'coordinated') return { ...UNKNOWN_EFFECTS, coordinated: true };
  if (intent === 'per-replica') return { ...UNKNOWN_EFFECTS, perReplica: true, perReplicaByName: true };
  return intent === 'shared-write' ? { ...UNKNOWN_EFFECTS, sharedWrite: true } : UNKNOWN_EFFECTS;
}

const knowledge = new WeakMap<object, ModuleWorkKnowledge>();

function knowledgeOf(fn: ProjectFunction): ModuleWorkKnowledge {
  const key = fn.module.sourceCode.ast;
  let known = knowledge.get(key);
  if (!known) knowledge.set(key, (known = moduleWorkKnowledge(fn.module.context)));
  return known;
}

/** What running a project function reaches; a guard at its start (or around its effects) coordinates it. */
export const effectsOfProjectFunction: (fn: ProjectFunction) => Effects = defineFunctionFact<Effects>(
  'what scheduled work reaches',
  UNKNOWN_EFFECTS,
  (fn, follow) => {
    const { guards, effects } = knowledgeOf(fn);
    const options: EffectsOptions = {
      ...effects,
      followCall: factFollower(effectsOfProjectFunction, follow),
      followLockHelper: lockHelperFollower(follow),
      followClaimAnswer: factFollower(claimAnswerOf, follow),
      followRowLock: factFollower(locksRowsInCallersTransaction, follow),
    };
    if (isGuarded(fn.fn.body, guards, options)) return { external: true, coordinated: true, sharedWrite: false, perReplica: false };
    return workEffects(fn.fn.body, options);
  },
);

/** `followCall` for the linted file: calls into the project's other modules, judged by the function they reach. */
export function followCallsFrom(context: DetectContext): (call: TSESTree.CallExpression) => Effects | undefined {
  return factFollower(effectsOfProjectFunction, (callee) => projectFunctionOf(context, callee));
}

/** `svc.sweep.bind(svc)` → `svc.sweep`. */
function unbound(expression: TSESTree.Node): TSESTree.Node {
  const node = unwrapExpression(expression);
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && memberPropertyName(node.callee) === 'bind')
    return unwrapExpression(node.callee.object);
  return node;
}

/**
 * `withCheckIn('reminders', checkReminders)`: a wrapper of the project (monitoring, error
 * handling) that the work is handed through runs the functions given to it. What they reach is the
 * work's; a lock or guard the wrapper itself takes coordinates them all.
 */
function effectsThroughWrapper(context: DetectContext, call: TSESTree.CallExpression): Effects | undefined {
  const handed: ProjectFunction[] = [];
  for (const argument of call.arguments) {
    const value = argument.type === 'SpreadElement' ? undefined : unbound(argument);
    if (value?.type !== 'Identifier' && value?.type !== 'MemberExpression' && !(value && isFunctionLike(value))) continue;
    const target = projectFunctionOf(context, value);
    if (target) handed.push(target);
  }
  if (handed.length === 0) return undefined;
  const reached = handed.map((fn) => effectsOfProjectFunction(fn));
  const wrapper = projectFunctionOf(context, call.callee);
  return {
    external: reached.some((e) => e.external),
    coordinated: reached.every((e) => e.coordinated) || (wrapper !== undefined && effectsOfProjectFunction(wrapper).coordinated),
    sharedWrite: reached.some((e) => e.sharedWrite),
    perReplica: reached.every((e) => e.perReplica),
  };
}

/**
 * The effects of a work function handed over by name but defined in another module (`setInterval(sweep, ms)`),
 * or handed through a wrapper of the project (`withCheckIn('digest', sendDigests)`), when it is found.
 */
export function effectsOfWorkElsewhere(context: DetectContext, expression: TSESTree.Node | undefined): Effects | undefined {
  if (!expression) return undefined;
  const node = unbound(expression);
  const target = projectFunctionOf(context, node);
  if (target) return effectsOfProjectFunction(target);
  return node.type === 'CallExpression' ? effectsThroughWrapper(context, node) : undefined;
}

/** Whether `callee` is the global `setTimeout` (not `timers/promises`' sleep, not a local). */
function isGlobalSetTimeout(fn: ProjectFunction, callee: TSESTree.Node): boolean {
  if (callee.type !== 'Identifier' || callee.name !== 'setTimeout') return false;
  const variable = scopeVariable(fn.module.sourceCode, callee);
  return !variable || variable.defs.length === 0;
}

/** `p` or `() => p()`: the parameter a timer argument runs, by index. */
function runsParameter(node: TSESTree.Node | undefined, params: ReadonlyMap<string, number>): number | undefined {
  if (!node) return undefined;
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') return params.get(value.name);
  if (!isFunctionLike(value)) return undefined;
  const body = value.body.type === 'BlockStatement' && value.body.body.length === 1 ? value.body.body[0] : value.body;
  const expression = body?.type === 'ExpressionStatement' ? body.expression : body;
  const call = expression && unwrapExpression(expression, { await: true });
  return call?.type === 'CallExpression' && call.callee.type === 'Identifier' ? params.get(call.callee.name) : undefined;
}

/** Indexes of the parameters a project function hands to `setTimeout`, itself or through a helper it calls. */
const timerParameters: (fn: ProjectFunction) => readonly number[] = defineFunctionFact<readonly number[]>(
  'hands a parameter to setTimeout',
  [],
  (fn, follow) => {
    const params = new Map<string, number>();
    fn.fn.params.forEach((p, i) => {
      const id = p.type === 'AssignmentPattern' ? p.left : p;
      if (id.type === 'Identifier') params.set(id.name, i);
    });
    if (params.size === 0 || fn.fn.body.type !== 'BlockStatement') return [];
    const found = new Set<number>();
    for (const node of descendants(fn.fn.body, fn.module.sourceCode.visitorKeys)) {
      if (node.type !== 'CallExpression') continue;
      if (isGlobalSetTimeout(fn, node.callee)) {
        const index = runsParameter(node.arguments[0], params);
        if (index !== undefined) found.add(index);
        continue;
      }
      const forwarded = node.arguments.map((a) => runsParameter(a, params));
      if (forwarded.every((i) => i === undefined)) continue;
      const target = follow(node.callee);
      for (const at of target ? timerParameters(target) : []) {
        const index = forwarded[at];
        if (index !== undefined) found.add(index);
      }
    }
    return [...found];
  },
);

/**
 * `async function poll() { …; scheduleNext(poll); }` where `scheduleNext` (another module) sets
 * the timer: the call in the work that hands the work itself to a project reschedule helper.
 */
export function rescheduleThroughHelper(context: DetectContext, work: FunctionLike): TSESTree.CallExpression | undefined {
  const sourceCode = context.sourceCode;
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression') continue;
    const at = node.arguments.findIndex((a) => a.type !== 'SpreadElement' && resolveWorkFunction(sourceCode, a)?.fn === work);
    if (at < 0) continue;
    const helper = projectFunctionOf(context, node.callee);
    if (helper && timerParameters(helper).includes(at)) return node;
  }
  return undefined;
}
