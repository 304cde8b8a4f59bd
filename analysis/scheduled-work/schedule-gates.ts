// What surrounds a schedule where it is set up: a condition that starts it only on the elected
// leader or on the replica that won a claim or lock (coordinated at run time), or only where a deployment flag is set (every pod of one
// Deployment has the same environment, so the flag holds only while someone keeps exactly one pod
// configured differently); and whether the timer is a job runner (a scheduler of the project's
// own: a `Scheduler`/`Job`/`cron` class, function or file, or one that runs a job handed in).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { basename, extname } from 'node:path';
import { scopeVariable } from '../ast/scope-variable.js';
import { loadedFromOutside } from './loaded-collection.js';
import { memberPropertyName } from '../ast/property-names.js';
import {
  isDeploymentFlagText,
  JOB_RUNNER_WORDS,
  LEADER_WORDS,
  ORDINAL_HOST_NAME_PATTERN,
  REPLICA_ORDINAL_PATTERN,
} from '../../src/knowledge/per-replica.js';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { isOneJobFileName } from '../../src/knowledge/file-conventions.js';
import { classMemberKeyName, isFunctionLike, ownMethodCalled, type FunctionLike } from './work-function.js';
import { callersOf, callsInside } from './callers.js';
import { skipsArming } from './disarming-call.js';
import { callIntent } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { perFileMap } from '../source/last-file-cache.js';
import { inDevelopmentCase, isDevelopmentOnlyTest } from './development-gate.js';
import { partitionPoint } from '../source/partition-point.js';

/** `development`: set up only when the process runs in development (never in a production deployment). */
export type ScheduleGate = 'leader' | 'development' | 'deployment-flag' | undefined;

const MAX_CALLER_DEPTH = 3;

function enclosingFunction(node: TSESTree.Node): FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/** A `return` or `throw`, alone or in a block. */
export function exits(statement: TSESTree.Statement): boolean {
  if (statement.type === 'ReturnStatement' || statement.type === 'ThrowStatement') return true;
  return statement.type === 'BlockStatement' && statement.body.some((s) => s.type === 'ReturnStatement' || s.type === 'ThrowStatement');
}

type StatementList = TSESTree.BlockStatement | TSESTree.Program;

/** A statement list's early exits (`if (!isLeader) return;`), in order, with where each statement stands. */
interface EarlyExits {
  position: Map<TSESTree.Node, number>;
  exits: Array<{ at: number; test: TSESTree.Expression }>;
}

// Indexed once per list: a generated file's Program holds thousands of schedules, and scanning
// every statement before each of them made it quadratic.
const earlyExitsIn = perFileMap<StatementList, EarlyExits>();

/** The tests of the early exits of `list` that come before its statement `child`. */
function earlyExitsBefore(sourceCode: SourceCode, list: StatementList, child: TSESTree.Node): TSESTree.Node[] {
  const cache = earlyExitsIn(sourceCode);
  let known = cache.get(list);
  if (!known) {
    known = { position: new Map(), exits: [] };
    for (const [at, statement] of list.body.entries()) {
      known.position.set(statement, at);
      if (statement.type === 'IfStatement' && exits(statement.consequent)) known.exits.push({ at, test: statement.test });
    }
    cache.set(list, known);
  }
  const limit = known.position.get(child) ?? Infinity;
  const before = partitionPoint(known.exits, (exit) => exit.at < limit);
  return known.exits.slice(0, before).map((exit) => exit.test);
}

/** A condition on the way to a node, and whether it holds (`true`) or fails (an `else`, an early exit) for the node to run. */
interface Condition {
  test: TSESTree.Node;
  holds: boolean;
}

/** The conditions that must hold (or fail) for `node` to run, inside its own function. */
function conditionsAround(sourceCode: SourceCode, node: TSESTree.Node, fn: FunctionLike | undefined): Condition[] {
  const tests: Condition[] = [];
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && current !== fn; child = current, current = current.parent) {
    if ((current.type === 'IfStatement' || current.type === 'ConditionalExpression') && child !== current.test)
      tests.push({ test: current.test, holds: child === current.consequent });
    if (current.type === 'LogicalExpression' && child === current.right)
      tests.push({ test: current.left, holds: current.operator !== '||' });
    // `if (!isLeader) return;` before the statement holding the schedule.
    if (current.type === 'BlockStatement' || current.type === 'Program')
      for (const test of earlyExitsBefore(sourceCode, current, child)) tests.push({ test, holds: false });
  }
  return tests;
}

function isZeroLiteral(node: TSESTree.Node): boolean {
  return node.type === 'Literal' && (node.value === 0 || node.value === '0');
}

/**
 * Whether `test`, holding (or failing, `holds` false), means this is replica 0 of the deployment:
 * `config.instanceIndex === 0`, `process.env.INSTANCE_INDEX !== '0'` failing, a StatefulSet's
 * `process.env.HOSTNAME?.endsWith('-0')`. One replica runs what it guards.
 */
export function isReplicaZeroTest(sourceCode: SourceCode, test: TSESTree.Node, holds: boolean): boolean {
  const node = unwrapExpression(test);
  if (node.type === 'UnaryExpression' && node.operator === '!') return isReplicaZeroTest(sourceCode, node.argument, !holds);
  if (node.type === 'LogicalExpression' && node.operator === (holds ? '&&' : '||'))
    return isReplicaZeroTest(sourceCode, node.left, holds) || isReplicaZeroTest(sourceCode, node.right, holds);
  if (node.type === 'BinaryExpression' && ['===', '==', '!==', '!='].includes(node.operator)) {
    const other = isZeroLiteral(node.right) ? node.left : isZeroLiteral(node.left) ? node.right : undefined;
    const equal = node.operator === '===' || node.operator === '==';
    return other !== undefined && equal === holds && REPLICA_ORDINAL_PATTERN.test(sourceCode.getText(other).replace(/_/g, ''));
  }
  if (
    node.type === 'CallExpression' &&
    holds &&
    node.callee.type === 'MemberExpression' &&
    memberPropertyName(node.callee) === 'endsWith'
  ) {
    const suffix = node.arguments[0];
    return (
      suffix?.type === 'Literal' &&
      suffix.value === '-0' &&
      ORDINAL_HOST_NAME_PATTERN.test(sourceCode.getText(node.callee.object).replace(/_/g, ''))
    );
  }
  return false;
}

/** The text of a condition, with the bodies of same-class getters it reads (`this.isEnabled`). */
function conditionText(sourceCode: SourceCode, test: TSESTree.Node): string {
  let text = sourceCode.getText(test);
  const classBody = ancestorOfType(test, 'ClassBody');
  if (!classBody) return text;
  for (const member of classBody.body) {
    if (member.type !== 'MethodDefinition' || member.kind !== 'get') continue;
    const name = classMemberKeyName(member);
    if (name !== undefined && text.includes(`this.${name}`)) text += ` ${sourceCode.getText(member.value)}`;
  }
  return text;
}

function ancestorOfType(node: TSESTree.Node, type: 'ClassBody'): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) if (current.type === type) return current;
  return undefined;
}

const NO_TELEMETRY: ReadonlySet<string> = new Set();

/**
 * A condition that holds only on the replica that won a claim or a lock: it calls one
 * (`if (await tryLock())`) or reads a name holding one's answer (`const claimed = await
 * this.tryClaimTask(…); if (!claimed) return;`).
 */
function isClaimCondition(sourceCode: SourceCode, test: TSESTree.Node): boolean {
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const claims = (node: TSESTree.Node): boolean => {
    const value = unwrapExpression(node, { await: true });
    return value.type === 'CallExpression' && callIntent(value, NO_TELEMETRY) === 'coordinated';
  };
  const visit = (node: TSESTree.Node): boolean => {
    if (claims(node)) return true;
    if (node.type === 'Identifier') {
      const variable = scopeVariable(sourceCode, node);
      const def = variable?.defs.length === 1 ? variable.defs[0]!.node : undefined;
      return def?.type === 'VariableDeclarator' && def.init !== null && claims(def.init);
    }
    if (node.type === 'CallExpression' || node.type === 'MemberExpression') return false;
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(value) ? value : [value])
        if (item && typeof (item as TSESTree.Node).type === 'string' && visit(item as TSESTree.Node)) return true;
    }
    return false;
  };
  try {
    return visit(test);
  } catch {
    return false;
  }
}

function hasWord(text: string, words: readonly string[]): boolean {
  return nameWords(text).some((w) => words.includes(w));
}

/** A call that registers a handler for a leader-election event: `on('leader-takeover', …)`, `once('elected', …)`. */
export function isLeaderEvent(call: TSESTree.Node | undefined): boolean {
  return call?.type === 'CallExpression' && call.arguments.some((a) => a.type === 'Literal' && hasWord(String(a.value), LEADER_WORDS));
}

/** A leader or deployment-flag condition on the way to `node` (its own function, then up to three callers). */
export function scheduleGate(sourceCode: SourceCode, node: TSESTree.Node): ScheduleGate {
  let flag = false;
  let development = false;
  const seen = new Set<FunctionLike>();
  const visit = (at: TSESTree.Node, depth: number): boolean => {
    const fn = enclosingFunction(at);
    if (inDevelopmentCase(at, fn)) development = true;
    for (const { test, holds } of conditionsAround(sourceCode, at, fn)) {
      if (isDevelopmentOnlyTest(test, holds)) development = true;
      const text = conditionText(sourceCode, test);
      if (hasWord(text, LEADER_WORDS) || isClaimCondition(sourceCode, test)) return true;
      // One replica of the deployment by its ordinal (`config.instanceIndex === 0`, a StatefulSet's `-0`).
      if (isReplicaZeroTest(sourceCode, test, holds)) return true;
      if (isDeploymentFlagText(text)) flag = true;
    }
    if (!fn || seen.has(fn) || depth >= MAX_CALLER_DEPTH) return false;
    seen.add(fn);
    // Started from a leader-election event: `on('leader-takeover', () => this.start())`.
    if (isLeaderEvent(fn.parent)) return true;
    return callersOf(sourceCode, fn).some((caller) => visit(caller, depth + 1));
  };
  if (visit(node, 0)) return 'leader';
  if (development) return 'development';
  return flag ? 'deployment-flag' : undefined;
}

/** The work's first statement leaves on every replica but the first: `if (config.instanceIndex !== 0) return;`. */
export function workStartsWithReplicaZeroCheck(sourceCode: SourceCode, fn: FunctionLike | undefined): boolean {
  const first = fn?.body.type === 'BlockStatement' ? fn.body.body[0] : undefined;
  return first?.type === 'IfStatement' && exits(first.consequent) && isReplicaZeroTest(sourceCode, first.test, false);
}

/** The work's first statement is a deployment-flag check: `if (!config.isCronNode) return;`. */
export function workStartsWithFlagCheck(sourceCode: SourceCode, fn: FunctionLike | undefined): boolean {
  const first = fn?.body.type === 'BlockStatement' ? fn.body.body[0] : undefined;
  return first?.type === 'IfStatement' && isDeploymentFlagText(sourceCode.getText(first.test));
}

function namesAround(node: TSESTree.Node): string[] {
  const names: string[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if ((current.type === 'ClassDeclaration' || current.type === 'ClassExpression') && current.id) names.push(current.id.name);
    if (current.type === 'FunctionDeclaration' && current.id) names.push(current.id.name);
    if (current.type === 'MethodDefinition') names.push(classMemberKeyName(current) ?? '');
  }
  return names;
}

/**
 * Whether a function around the schedule calls one of its own function parameters (a job handed
 * in) where the timer runs it: inside the work (or, the work unresolved, in any nested function),
 * or in its own body when it is the work itself (`function loop(job) { job(); setTimeout(…) }`).
 * A parameter called only while the function sets up (`const opts = override ? override(base) : base`)
 * or by another callback (a message handler beside a pull timer) is not the timer's job.
 */
function runsJobHandedIn(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike | undefined): boolean {
  for (let fn = enclosingFunction(schedule); fn; fn = enclosingFunction(fn)) {
    // A callback's parameters (`new Promise((resolve) => …)`) are someone else's, not a job handed in.
    if (fn.parent?.type === 'CallExpression' || fn.parent?.type === 'NewExpression') continue;
    const body = sourceCode.getText(fn.body);
    for (const p of fn.params) {
      if (p.type !== 'Identifier' || !new RegExp(`\\b${p.name}\\s*\\(`).test(body)) continue;
      // A completion callback, called once and then dropped (`callback(); callback = undefined;`): not a job.
      if (new RegExp(`(?<![.\\w$])${p.name}\\s*=(?![=>])`).test(body)) continue;
      const variable = sourceCode.getDeclaredVariables(fn).find((v) => v.name === p.name);
      const owner = fn;
      const perTick = (variable?.references ?? []).some((r) => {
        const call = r.identifier.parent;
        if (call?.type !== 'CallExpression' || call.callee !== r.identifier) return false;
        if (!work) return enclosingFunction(call) !== owner;
        return owner === work || (call.range[0] >= work.range[0] && call.range[1] <= work.range[1]);
      });
      if (variable && !perTick) continue;
      return true;
    }
  }
  return false;
}

/** A timer that is the project's own job runner: its schedule is a declared job. */
export function isJobRunner(sourceCode: SourceCode, schedule: TSESTree.Node, filename: string, work?: FunctionLike): boolean {
  const file = basename(filename, extname(filename));
  if ([file, ...namesAround(schedule)].some((name) => hasWord(name, JOB_RUNNER_WORDS)) || isOneJobFileName(file)) return true;
  return runsJobHandedIn(sourceCode, schedule, work);
}

/** `queue()` → `setTimeout(invoke)` → `invoke()` → `queue()`: the work calls back the function that set the timer. */
export function reschedulesThroughCaller(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  const setter = enclosingFunction(schedule);
  if (!setter || setter === work) return false;
  // A call that passes `false` for what arming needs (`this.onTyping(user, false)`) does not reschedule.
  return callsInside(sourceCode, setter, work, (call) => !skipsArming(call, setter, schedule));
}

const ITERATING = new Set(['keys', 'values', 'entries', 'forEach']);
/** Methods that drain or copy a collection (`this.buffer.splice(0)`, `this.messages.filter(…)`). */
const DRAINING = new Set(['filter', 'map', 'splice', 'slice']);

const isTimerClearer = (node: TSESTree.Node | undefined): boolean =>
  node?.type === 'Identifier' && (TIMER_LIFETIME.clearers as readonly string[]).includes(node.name);

/** `clearTimeout(timer)`, or a block of such statements: the body of a walk that only disarms this process's timers. */
function clearsTimersOnly(body: TSESTree.Node | undefined): boolean {
  if (body?.type === 'BlockStatement') return body.body.length > 0 && body.body.every(clearsTimersOnly);
  const expression = body?.type === 'ExpressionStatement' ? body.expression : body;
  return expression?.type === 'CallExpression' && isTimerClearer(expression.callee);
}

/**
 * A walk of a collection of timers that only disarms them (`for (const t of timeouts.values())
 * clearTimeout(t)`, `timers.forEach(clearTimeout)`): bookkeeping before the work, not a flush of
 * what the process holds.
 */
function disarmsTimers(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  if (parent?.type === 'ForOfStatement' && parent.right === call) return clearsTimersOnly(parent.body);
  if (memberPropertyName(call.callee) !== 'forEach') return false;
  const callback = call.arguments[0];
  if (isTimerClearer(callback)) return true;
  return isFunctionLike(callback) && clearsTimersOnly(callback.body);
}

/** `this.pending`, or a name declared at the top of the module. */
function heldByInstanceOrModule(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  if (node.type === 'MemberExpression') return node.object.type === 'ThisExpression';
  if (node.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, node);
  return variable?.scope.type === 'module' || variable?.scope.type === 'global';
}
/** How many `this.method()` calls deep the own-collection question follows (`tick` → `checkAndFlush` → `flushBatch`). */
const OWN_METHOD_DEPTH = 3;

/** `this.name = value` at the top level of the class's constructor (fields of compiled or plain JavaScript). */
function constructorAssignment(classBody: TSESTree.ClassBody | undefined, name: string | undefined): TSESTree.Node | undefined {
  const constructor = classBody?.body.find((m) => m.type === 'MethodDefinition' && m.kind === 'constructor');
  if (constructor?.type !== 'MethodDefinition' || name === undefined) return undefined;
  for (const statement of constructor.value.body?.body ?? []) {
    const expression = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    if (expression?.type !== 'AssignmentExpression' || expression.left.type !== 'MemberExpression') continue;
    if (expression.left.object.type === 'ThisExpression' && memberPropertyName(expression.left) === name) return expression.right;
  }
  return undefined;
}

/** A collection this process holds in memory: `const users = {}`, `this.pending = []` (a field or set in the constructor), `new Map()`. */
function isInMemoryCollection(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  let init: TSESTree.Node | null | undefined;
  if (node.type === 'Identifier') {
    const variable = scopeVariable(sourceCode, node);
    const def = variable?.defs[0]?.node;
    init = def?.type === 'VariableDeclarator' ? def.init : undefined;
  } else if (node.type === 'MemberExpression' && node.object.type === 'ThisExpression') {
    // A field the class also loads from outside (`this.due = await db.schedule.findMany()`, or item by item) holds shared rows.
    if (loadedFromOutside(node, sourceCode.visitorKeys)) return false;
    const name = memberPropertyName(node);
    const classBody = ancestorOfType(node, 'ClassBody');
    const field = classBody?.body.find((m) => m.type === 'PropertyDefinition' && classMemberKeyName(m) === name);
    init = (field?.type === 'PropertyDefinition' ? field.value : undefined) ?? constructorAssignment(classBody, name);
  }
  if (!init) return false;
  if (init.type === 'ObjectExpression' || init.type === 'ArrayExpression') return true;
  return init.type === 'NewExpression' && init.callee.type === 'Identifier' && ['Map', 'Set'].includes(init.callee.name);
}

/**
 * The work walks or drains a collection this process holds in memory (`Object.keys(users)`,
 * `this.buffer.forEach`, `this.pending.splice(0)`), itself or in the methods of its class it calls
 * (`() => this.checkAndFlush()`): it flushes its own state, per replica.
 */
export function iteratesOwnCollection(sourceCode: SourceCode, work: FunctionLike): boolean {
  let found = false;
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const seen = new Set<FunctionLike>([work]);
  let depth = 0;
  // In a method the work calls, or for a drain, only the instance's or the module's collection
  // counts: a method's local Map or array is as often built from a query.
  const owned = (target: TSESTree.Node, draining: boolean): boolean =>
    isInMemoryCollection(sourceCode, target) && ((depth === 0 && !draining) || heldByInstanceOrModule(sourceCode, target));
  const visit = (node: TSESTree.Node): void => {
    if (found) return;
    const method = node.type === 'CallExpression' && depth < OWN_METHOD_DEPTH ? ownMethodCalled(node) : undefined;
    if (method && !seen.has(method)) {
      seen.add(method);
      depth++;
      visit(method.body);
      depth--;
    }
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
      const method = memberPropertyName(node.callee);
      const object = node.callee.object;
      const target = object.type === 'Identifier' && object.name === 'Object' ? node.arguments[0] : object;
      const walks = method !== undefined && (ITERATING.has(method) || DRAINING.has(method));
      if (walks && target && owned(target, DRAINING.has(method!)) && !disarmsTimers(node)) found = true;
    }
    if ((node.type === 'ForOfStatement' || node.type === 'ForInStatement') && owned(node.right, false) && !clearsTimersOnly(node.body))
      found = true;
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(value) ? value : [value])
        if (item && typeof (item as TSESTree.Node).type === 'string') visit(item as TSESTree.Node);
    }
  };
  visit(work.body);
  return found;
}
