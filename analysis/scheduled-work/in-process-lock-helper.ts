// A lock helper of the project that locks only in this process: `withLock(name, task)`,
// `acquireLock(name)`, `runLocked(task)` — trusted by its name as a lock across replicas — whose
// body keeps its lock in this process's memory: a `Set` or `Map` of held keys, a promise chain,
// an in-process mutex package's lock (async-mutex, async-lock…), and otherwise only runs what it
// was handed. Every replica takes its own; the work is judged as if the helper were not there. A
// helper that reaches anything else (a Redis `SET NX`, SQL with an advisory lock, a lock library,
// a call it cannot follow) keeps its name's meaning, as does one that cannot be read at all.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { IN_PROCESS_FUNCTIONS, IN_PROCESS_OBJECTS } from '../../src/knowledge/work-effects.js';
import { IN_PROCESS_LOCK_MODULES, LEADER_WORDS } from '../../src/knowledge/per-replica.js';
import { PROMISE_CHAIN_METHODS } from '../../src/knowledge/lock-names.js';
import type { DetectContext } from '../detect-context.js';
import { memberPropertyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import { defineFunctionFact, projectFunctionOf, type FollowCall, type ProjectFunction } from '../modules/index.js';
import { holdsInMemoryStructure, importSource, isInMemoryValue } from './in-memory-values.js';
import { locksThisProcessOnly } from './in-process-locks.js';
import { identifierDefinition, ownMethodCalled, type FunctionLike } from './work-function.js';
import { calleeName } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';

/** A call this module cannot answer: whether the project function it reaches locks only in this process (undefined: not found). */
export type FollowLockHelper = (call: TSESTree.CallExpression) => boolean | undefined;

/** Built-ins a helper may construct without leaving the process (`new Promise(…)`, `new Error(…)`). */
const IN_PROCESS_CLASSES: ReadonlySet<string> = new Set(['Promise', 'Error', 'Date', 'Map', 'Set', 'WeakMap', 'WeakSet']);

/** An identifier that is one of the helper's parameters, or a global built-in (no declaration). */
function isParameterOf(sourceCode: SourceCode, fn: FunctionLike, identifier: TSESTree.Identifier): boolean {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  return def?.type === 'Parameter' && (def.node as TSESTree.Node) === fn;
}

/** `new Mutex()` of an in-process lock package, `new Map()`, `new Promise(…)`. */
function constructsInProcess(sourceCode: SourceCode, node: TSESTree.NewExpression): boolean {
  if (isInMemoryValue(sourceCode, node)) return true;
  const callee = unwrapExpression(node.callee);
  const root = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : callee;
  if (root.type !== 'Identifier') return false;
  if (IN_PROCESS_CLASSES.has(root.name) && scopeVariable(sourceCode, root)?.defs.length !== 1) return true;
  return IN_PROCESS_LOCK_MODULES.includes(importSource(sourceCode, root) ?? '');
}

/** The same-module function a call runs: by name, or a method of the enclosing class. */
function localCallee(sourceCode: SourceCode, call: TSESTree.CallExpression): FunctionLike | undefined {
  return call.callee.type === 'Identifier' ? identifierDefinition(sourceCode, call.callee)?.fn : ownMethodCalled(call);
}

/**
 * What one call in the helper does: `held` keeps or runs under this process's lock (the task it was
 * handed, a `Set` of held keys, a promise chain, an in-process mutex), `quiet` stays in the process
 * (a built-in), `out` may leave it.
 */
function callInHelper(
  sourceCode: SourceCode,
  fn: FunctionLike,
  call: TSESTree.CallExpression,
  follow: FollowLockHelper | undefined,
  seen: Set<FunctionLike>,
): 'held' | 'quiet' | 'out' {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') {
    if (isParameterOf(sourceCode, fn, callee)) return 'held'; // `await task()`
    if (IN_PROCESS_FUNCTIONS.has(callee.name)) return 'quiet';
  } else if (callee.type === 'MemberExpression') {
    const object = unwrapExpression(callee.object);
    if (PROMISE_CHAIN_METHODS.includes(memberPropertyName(callee) ?? '')) return 'held'; // `tail.then(task)`
    if (object.type === 'Identifier' && (IN_PROCESS_OBJECTS.has(object.name) || object.name === 'Promise')) return 'quiet';
    if (holdsInMemoryStructure(sourceCode, object) || locksThisProcessOnly(sourceCode, call)) return 'held';
  }
  const local = localCallee(sourceCode, call);
  if (local) return seen.has(local) ? 'quiet' : bodyLocksInProcess(sourceCode, local, follow, seen) ? 'held' : 'out';
  return follow?.(call) === true ? 'held' : 'out';
}

/**
 * Whether a function's body keeps a lock in this process (a held-keys `Set`, a promise chain, a mutex, or
 * it runs what it was handed) and reaches nothing outside it. A body with none of those (`isElected()`
 * returning a flag an election sets) says nothing against its name.
 */
function bodyLocksInProcess(
  sourceCode: SourceCode,
  fn: FunctionLike,
  follow: FollowLockHelper | undefined,
  seen: Set<FunctionLike>,
): boolean {
  seen.add(fn);
  let held = false;
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    if (node.type === 'TaggedTemplateExpression' || node.type === 'ImportExpression') return false;
    if (node.type === 'NewExpression' && !constructsInProcess(sourceCode, node)) return false;
    const effect = node.type === 'CallExpression' ? callInHelper(sourceCode, fn, node, follow, seen) : 'quiet';
    if (effect === 'out') return false;
    held ||= effect === 'held';
  }
  return held;
}

/** A lock helper of another project module that locks only in its process (three calls deep). */
const lockHelperStaysInProcess: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>(
  'locks only in this process',
  false,
  (fn, follow) => bodyLocksInProcess(fn.module.sourceCode, fn.fn, lockHelperFollower(follow), new Set()),
);

/** `FollowLockHelper` through a resolver of callees: the linted file's (`projectFunctionOf`) or a fact's `follow`. */
export function lockHelperFollower(resolve: FollowCall): FollowLockHelper {
  return (call) => {
    const target = resolve(call.callee);
    return target ? lockHelperStaysInProcess(target) : undefined;
  };
}

/** `FollowLockHelper` for the linted file: lock helpers of the project's other modules. */
export function followLockHelpersFrom(context: DetectContext): FollowLockHelper {
  return lockHelperFollower((callee) => projectFunctionOf(context, callee));
}

/**
 * Whether a lock-named call (`withLock(key, fn)`, `this.locks.acquireLock(key)`) runs a helper of the
 * project — this module's, or one `follow` reaches — whose lock lives in this process only.
 */
export function lockHelperLocksInProcess(
  sourceCode: SourceCode,
  call: TSESTree.CallExpression,
  follow: FollowLockHelper | undefined,
): boolean {
  // `isLeader()`, `this.election.isElected()`: an election's answer, whatever holds it.
  const name = calleeName(call.callee);
  if (name !== undefined && nameWords(name).some((word) => LEADER_WORDS.includes(word))) return false;
  const local = localCallee(sourceCode, call);
  if (local) return bodyLocksInProcess(sourceCode, local, follow, new Set());
  return follow?.(call) === true;
}
