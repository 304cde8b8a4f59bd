// Whether scheduled work reaches beyond the process — the only work that repeats harmfully at N
// replicas. In-process work (clearing a Map, resetting a counter, a log line, a metric) does not.
// Without types this is a heuristic: an unknown call counts as external, a known in-process call
// does not, and a same-file function is looked into (a few levels deep); a function of another
// project module through `followCall` (analysis/scheduled-work/cross-file-work.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { EXTERNAL_RECEIVER_WORDS, IN_PROCESS_FUNCTIONS, IN_PROCESS_METHODS, IN_PROCESS_OBJECTS } from '../../src/knowledge/work-effects.js';
import { identifierDefinition, ownMethodCalled, type FunctionLike } from './work-function.js';
import {
  calleeName,
  callIntent,
  isClaimSql,
  isMachineIdentifier,
  isWriteSql,
  measuresThisProcess,
  namesObjectlessIdleDrop,
  namesOwnConnectionDrop,
} from './work-intent.js';
import { DEDUPE_OPTION_KEYS } from '../../src/knowledge/per-replica.js';
import { isLeaderExit } from './lease-gate.js';
import { propertyKeyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { isAwaited } from '../ast/unwrapped-expression.js';
import { writesBeaconKey } from './beacon-key.js';
import { locksThisProcessOnly } from './in-process-locks.js';
import { lockHelperLocksInProcess, type FollowLockHelper } from './in-process-lock-helper.js';
import { holdsInMemoryStructure } from './in-memory-values.js';
import { isInTransactionCallback, locksRowsForUpdate } from './row-lock.js';
import { isTryLockGate } from './try-lock-gate.js';
import { claimsItsWork, claimsThroughCallee, type CalleeClaimOptions } from './claimed-work.js';
import { registeredHandlers } from './worker-registration.js';
import { sendsOnLookedUpEntry } from './looked-up-receiver.js';
import { fillsMissingCacheKey } from './cache-aside-fill.js';
import { reachesOnlyOwn } from './own-reach.js';
import { onlyLogs } from './log-only-function.js';
import { refreshesProcessState } from './process-state-refresh.js';
import { readsOwnAddress } from './own-address.js';

function lastWord(name: string): string {
  const words = name.split(/(?=[A-Z])|_|\$/).filter(Boolean);
  return (words[words.length - 1] ?? name).toLowerCase();
}

export function isExternalReceiver(node: TSESTree.Node): boolean {
  // A member chain reaches the client at its root (`this.db.users.update`) or at a link.
  let current: TSESTree.Node = node;
  for (let depth = 0; depth < 6; depth++) {
    const name = receiverName(current);
    if (name !== undefined && !IN_PROCESS_OBJECTS.has(name)) {
      if (EXTERNAL_RECEIVER_WORDS.has(name.toLowerCase()) || EXTERNAL_RECEIVER_WORDS.has(lastWord(name))) return true;
    }
    if (current.type === 'MemberExpression') current = current.object;
    else if (current.type === 'CallExpression' && current.callee.type === 'MemberExpression') current = current.callee.object;
    else return false;
  }
  return false;
}

export { isAwaited };

export interface EffectsOptions extends CalleeClaimOptions {
  sourceCode: SourceCode;
  /** A call the caller knows is coordinated elsewhere (an atomic take off a shared structure): not an effect here. */
  isCoordinatedCall?: (call: TSESTree.CallExpression) => boolean;
  /**
   * A queue enqueue: `deduplicated` (a job id, a repeat, a singleton key: once however many replicas
   * enqueue it — the work is coordinated when it does nothing else shared), `plain` (a job per replica: a shared write).
   */
  enqueueOf?: (call: TSESTree.CallExpression) => 'deduplicated' | 'plain' | undefined;
  /** Calls to skip entirely (guard calls). */
  isGuardCall?: (call: TSESTree.CallExpression) => boolean;
  /** Local names bound to metrics/telemetry modules (see `telemetryBindings`). */
  telemetry?: ReadonlySet<string>;
  /**
   * A call this file cannot resolve (an import, an injected service's method): what the project
   * function it reaches does, or undefined when that is not known (analysis/modules).
   */
  followCall?: (call: TSESTree.CallExpression) => Effects | undefined;
  /** A lock-named call this file cannot resolve: whether the project helper it reaches locks only in its process. */
  followLockHelper?: FollowLockHelper;
  /** Nodes not walked: other schedules the work builds, judged where they are built. */
  skip?: ReadonlySet<TSESTree.Node>;
}

export interface Effects {
  /** Reaches beyond the process (I/O, async work, an unknown call). */
  external: boolean;
  /** Hands work to a distributed queue, takes a lock or claims a row: coordinated across replicas. */
  coordinated: boolean;
  /** Writes shared state or sends something out (a database write, a message, a queue publish), by name. */
  sharedWrite: boolean;
  /** Says "this instance only" (telemetry, heartbeat, own-buffer flush, data keyed by machine id). */
  perReplica: boolean;
  /** `perReplica` comes only from calls named for this instance, not from data keyed by this machine. */
  perReplicaByName?: boolean;
}

const MAX_DEPTH = 3;

/** Functions whose body is being read for `staysInProcess` (a lock-named helper calling itself). */
const judging = new WeakSet<FunctionLike>();

/** Adds what a followed function reaches to the work's effects. */
function merge(effects: Effects, reached: Effects): void {
  effects.coordinated ||= reached.coordinated;
  effects.perReplica ||= reached.perReplica;
  effects.sharedWrite ||= reached.sharedWrite;
  effects.external ||= reached.external;
}

/**
 * How a walk came by "this instance only": a call named for it inside a function the work calls
 * (`progress.flush()` in a job handler), and data keyed by this machine or a followed function's
 * mark that is not only a name. A name says what the work is where the work itself makes the call;
 * inside a function it calls, beside that function's shared writes, it is bookkeeping.
 */
const perReplicaMarks = new WeakMap<Effects, { namedInCallee: boolean; keyed: boolean }>();

function marksOf(effects: Effects): { namedInCallee: boolean; keyed: boolean } {
  let marks = perReplicaMarks.get(effects);
  if (!marks) perReplicaMarks.set(effects, (marks = { namedInCallee: false, keyed: false }));
  return marks;
}

/** A call named for this instance, at `depth` calls from the work; housekeeping (`pruneConnections()`) counts as in a callee. */
function namedForThisInstance(effects: Effects, depth: number, call: TSESTree.CallExpression): void {
  const name = calleeName(call.callee);
  if (depth === 0 && !(name !== undefined && namesOwnConnectionDrop(name))) effects.perReplica = true;
  else marksOf(effects).namedInCallee = true;
}

/** Data keyed by this machine (`os.hostname()`): the work's writes are this instance's. */
function keyedToMachine(effects: Effects): void {
  effects.perReplica = marksOf(effects).keyed = true;
}

/** A function of another module, whose per-replica mark is left out when it is only a name beside its own shared writes. */
function mergeFollowed(effects: Effects, reached: Effects): void {
  const bookkeeping = reached.perReplicaByName === true && reached.sharedWrite;
  merge(effects, bookkeeping ? { ...reached, perReplica: false } : reached);
  if (reached.perReplica && !reached.perReplicaByName) marksOf(effects).keyed = true;
}

/** The walk's effects, its per-replica marks settled. */
function settled(effects: Effects): Effects {
  const marks = perReplicaMarks.get(effects);
  if (marks?.namedInCallee && !effects.sharedWrite) effects.perReplica = true;
  if (effects.perReplica && !marks?.keyed) effects.perReplicaByName = true;
  return effects;
}

/** The same-file function a call runs: a function by name, or a method of the enclosing class (`this.sweep()`). */
export function resolveCallee(sourceCode: SourceCode, call: TSESTree.CallExpression): FunctionLike | undefined {
  const callee = call.callee;
  if (callee.type === 'Identifier') return identifierDefinition(sourceCode, callee)?.fn;
  return ownMethodCalled(call);
}

/**
 * The callee is a synchronous function of the project that reaches nothing outside the process
 * (`withFileLock(path, script)` builds a string): whatever its name says, it takes no lock.
 */
function staysInProcess(call: TSESTree.CallExpression, options: EffectsOptions): boolean {
  const local = resolveCallee(options.sourceCode, call);
  if (local) {
    if (local.async || local.generator || judging.has(local)) return false;
    judging.add(local);
    try {
      return !workEffects(local.body, { ...options, followCall: undefined }).external;
    } finally {
      judging.delete(local);
    }
  }
  const reached = options.followCall?.(call);
  return reached !== undefined && !reached.external && !reached.coordinated;
}

/** A call named for dropping idle things (`closeStale`) whose body — same file or followed — writes shared state. */
function dropsSharedRows(call: TSESTree.CallExpression, options: EffectsOptions): boolean {
  const name = calleeName(call.callee);
  if (name === undefined || !namesObjectlessIdleDrop(name)) return false;
  const local = resolveCallee(options.sourceCode, call);
  if (!local) return options.followCall?.(call)?.sharedWrite === true;
  if (judging.has(local)) return false;
  judging.add(local);
  try {
    return workEffects(local.body, options).sharedWrite;
  } finally {
    judging.delete(local);
  }
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** What a call's callee alone says of staying in the process: true, false, or undefined (its body decides). */
function inProcessByCallee(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean | undefined {
  const callee = call.callee;
  if (callee.type === 'Identifier') return IN_PROCESS_FUNCTIONS.has(callee.name) ? true : undefined;
  if (callee.type !== 'MemberExpression') return undefined;
  const method = !callee.computed && callee.property.type === 'Identifier' ? callee.property.name : undefined;
  if (method === 'then' || method === 'catch' || method === 'finally') return false;
  if (isExternalReceiver(callee.object)) return holdsInMemoryStructure(sourceCode, callee.object);
  if (callee.object.type === 'Identifier' && IN_PROCESS_OBJECTS.has(callee.object.name)) return true;
  // `map.set(k, v)` stays in the process; `await queue.add(job)` waits for something outside it.
  if (method !== undefined && IN_PROCESS_METHODS.has(method) && callee.object.type !== 'ThisExpression' && !isAwaited(call)) return true;
  return undefined;
}

/**
 * The call runs a same-file function the work is defined in (`this.scheduleNext()` inside its own
 * timer): the work's own setup, run again. Its name says no write; its body is still read.
 */
function callsEnclosing(sourceCode: SourceCode, call: TSESTree.CallExpression, root: TSESTree.Node): boolean {
  const target = resolveCallee(sourceCode, call);
  return target !== undefined && target.range[0] <= root.range[0] && root.range[1] <= target.range[1];
}

/** The same-file function `call` runs holds one of the nodes the walk skips (a schedule it builds). */
function buildsSkipped(call: TSESTree.CallExpression, options: EffectsOptions): boolean {
  const target = resolveCallee(options.sourceCode, call);
  if (!target || !options.skip) return false;
  for (const node of options.skip) if (node.range[0] >= target.range[0] && node.range[1] <= target.range[1]) return true;
  return false;
}

/**
 * What a call's name says; a lock by its name only (`withFileLock(path, script)`) whose body we read
 * and that reaches nothing outside the process (it builds a string), a lock of an in-process
 * package (async-mutex's `mutex.runExclusive(…)`), or a project helper keeping its lock in this process
 * (a `Set` of held keys, a promise chain), takes no lock across replicas: it is judged by its body.
 */
function intentOf(node: TSESTree.CallExpression, options: EffectsOptions, root: TSESTree.Node): ReturnType<typeof callIntent> {
  const named =
    callIntent(node, options.telemetry ?? NO_NAMES) ?? (sendsOnLookedUpEntry(options.sourceCode, node) ? 'shared-write' : undefined);
  // The work's own setup run again (`callsEnclosing`) names no write; "this instance" (`this.setPingTimer()`) still counts.
  if (named !== 'per-replica' && callsEnclosing(options.sourceCode, node, root)) return undefined;
  // `callQueue.delete(id)` on a `new Map()` of this file: a write by its name, to this process's memory.
  if (named === 'shared-write' && node.callee.type === 'MemberExpression' && holdsInMemoryStructure(options.sourceCode, node.callee.object))
    return undefined;
  // `this.scheduleProbe(id)` building a schedule the caller judges where it is built: its body is read, not its name.
  if (named === 'shared-write' && options.skip && buildsSkipped(node, options)) return undefined;
  // `if (!stats) { stats = …; await kv.set(key, stats); }` after `stats = await kv.get(key)`: a cache filled on a miss.
  if (named === 'shared-write' && fillsMissingCacheKey(options.sourceCode, node)) return undefined;
  // `saveCounts(n)`, `this.updateStats()`: a write by its name whose body (this file or another module) stays in the process.
  if (named === 'shared-write' && staysInProcess(node, options)) return undefined;
  // `closeStale(db)`: "this process's idle things" by its name, judged by its body when that writes shared rows.
  if (named === 'per-replica' && dropsSharedRows(node, options)) return undefined;
  // `writeTickHeartbeat()` whose body in this file only logs: a log line, not this instance's liveness sent out.
  if (named === 'per-replica' && onlyLogs(resolveCallee(options.sourceCode, node))) return undefined;
  // `redis.set('svc:ping', now)`: a liveness beacon, the same key from every replica.
  if (named !== 'coordinated' && writesBeaconKey(node)) return 'per-replica';
  if (named !== 'coordinated') return named;
  // `withLock(key, fn)` of the project keeping its held keys in a `Set`, `mutexes.get(key)` on a `new Map()`: every replica takes its own.
  if (lockHelperLocksInProcess(options.sourceCode, node, options.followLockHelper)) return undefined;
  if (node.callee.type === 'MemberExpression' && holdsInMemoryStructure(options.sourceCode, node.callee.object)) return undefined;
  return staysInProcess(node, options) || locksThisProcessOnly(options.sourceCode, node) ? undefined : named;
}

/** `downloadTracker.updateDownloads()` that neither this file nor a followed module answers: a refresh of this process's own state, by its name. */
function refreshesOwnStateOutOfReach(call: TSESTree.CallExpression, options: EffectsOptions): boolean {
  return refreshesProcessState(call) && !resolveCallee(options.sourceCode, call) && options.followCall?.(call) === undefined;
}

/** Rows locked for update in the work's transaction, or `if (!this.leader.isLeader) return;` first: what follows is coordinated. */
function coordinatesFrom(node: TSESTree.Node, sourceCode: SourceCode, inTransaction: boolean): boolean {
  return locksRowsForUpdate(node, sourceCode, inTransaction) || (node.type === 'IfStatement' && isLeaderExit(node));
}

/** The child nodes under one visitor key of `node` (one, a list, or none). */
function nodesAt(node: TSESTree.Node, key: string): TSESTree.Node[] {
  const child = (node as unknown as Record<string, unknown>)[key];
  const isNode = (value: unknown): value is TSESTree.Node => typeof (value as TSESTree.Node | null)?.type === 'string';
  return Array.isArray(child) ? child.filter(isNode) : isNode(child) ? [child] : [];
}

/** The effects of running `root` (a function or a statement list). */
export function workEffects(root: TSESTree.Node, options: EffectsOptions): Effects {
  const effects: Effects = { external: false, coordinated: false, sharedWrite: false, perReplica: false };
  const visited = new Set<FunctionLike>();
  const keys = options.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  let inTransaction = false; // in a same-file function called from a transaction's callback: its row locks hold
  let handedToQueue = false; // an enqueue with a job id seen: coordinated, when nothing else shared is written
  const localCallee = (call: TSESTree.CallExpression) => resolveCallee(options.sourceCode, call);
  const locksInProcessOnly = (call: TSESTree.CallExpression) =>
    lockHelperLocksInProcess(options.sourceCode, call, options.followLockHelper);

  /** Returns true when the call is known not to leave the process (its arguments are still walked). */
  const callIsInProcess = (call: TSESTree.CallExpression, depth: number): boolean => {
    const byCallee = inProcessByCallee(options.sourceCode, call);
    if (byCallee !== undefined) return byCallee;
    const target = resolveCallee(options.sourceCode, call);
    if (target && depth < MAX_DEPTH) {
      if (visited.has(target)) return true;
      visited.add(target);
      const [outside, outerTransaction] = [effects.external, inTransaction];
      effects.external = false;
      inTransaction ||= isInTransactionCallback(call);
      walk(target.body, depth + 1);
      inTransaction = outerTransaction;
      const reached = effects.external;
      effects.external = outside || reached;
      // An async same-file function is async work even when its awaits are hidden from us.
      return !reached && !target.async;
    }
    return false;
  };

  const walk = (node: TSESTree.Node, depth: number): void => {
    if (effects.coordinated || (effects.coordinated = !effects.sharedWrite && coordinatesFrom(node, options.sourceCode, inTransaction)))
      return;
    if (visited.has(node as FunctionLike) || options.skip?.has(node)) return; // walked already, or a worker's handler:
    for (const handler of registeredHandlers(node)) visited.add(handler as FunctionLike); // it runs per job delivered, not per tick
    switch (node.type) {
      case 'AwaitExpression': {
        const argument = node.argument.type === 'ChainExpression' ? node.argument.expression : node.argument;
        if (argument.type !== 'CallExpression') effects.external = true;
        break;
      }
      case 'ForOfStatement':
        if (node.await) effects.external = true;
        break;
      case 'TaggedTemplateExpression':
        // A lock tried first, the work left when it was not won (`$queryRaw\`SELECT pg_try_advisory_lock(…)\``);
        // else sql`…`, gql`…`: a query tag is a query.
        if ((effects.coordinated = !effects.sharedWrite && isTryLockGate(node, options.sourceCode))) return;
        effects.external = true;
        if (isWriteSql(node.quasi.quasis.map((q) => q.value.raw).join(' '))) effects.sharedWrite = true;
        break;
      case 'Literal':
      case 'TemplateElement':
        // `… FOR UPDATE SKIP LOCKED` anywhere in the work (a query argument, a constant): it claims rows.
        if (isClaimSql(node.type === 'Literal' ? (typeof node.value === 'string' ? node.value : undefined) : node.value.raw))
          effects.coordinated = true;
        break;
      case 'Property':
        if (DEDUPE_OPTION_KEYS.includes(propertyKeyName(node) ?? '')) effects.coordinated = true;
        break;
      case 'Identifier':
      case 'MemberExpression':
        if (isMachineIdentifier(node)) keyedToMachine(effects);
        break;
      case 'CallExpression': {
        if (options.isGuardCall?.(node)) return;
        const enqueue = options.enqueueOf?.(node);
        handedToQueue ||= enqueue === 'deduplicated';
        if (enqueue === 'deduplicated') return;
        if (enqueue === 'plain') effects.sharedWrite = effects.external = true;
        // A sample of this process (its CPU, memory, heap) or its own address: what the work reports or stores is this replica's own.
        if (measuresThisProcess(node) || readsOwnAddress(node)) keyedToMachine(effects);
        const claims =
          claimsItsWork(node, options.sourceCode, options.isCoordinatedCall, effects.sharedWrite, locksInProcessOnly) ||
          (!effects.sharedWrite && claimsThroughCallee(node, options, inTransaction || isInTransactionCallback(node), localCallee));
        if (claims) {
          effects.coordinated = true;
          return;
        }
        if (reachesOnlyOwn(options.sourceCode, node) || refreshesOwnStateOutOfReach(node, options)) break;
        const intent = intentOf(node, options, root);
        if (intent === 'coordinated') {
          effects.coordinated = true;
          return;
        }
        if (intent === 'per-replica') {
          namedForThisInstance(effects, depth, node);
          return;
        }
        // A function of another module is judged by what it does; its name still counts where the
        // body says nothing decisive (a stand-in that logs, effects behind a value picked at run time).
        const reached = resolveCallee(options.sourceCode, node) ? undefined : options.followCall?.(node);
        if (reached) {
          mergeFollowed(effects, reached);
          if (effects.coordinated) return;
          if (intent === 'shared-write' && !reached.perReplica) effects.sharedWrite = true;
          break;
        }
        if (intent === 'shared-write') effects.sharedWrite = true;
        // Read even when named for a write: a claim inside coordinates; a gauge does not make it per-replica, data keyed to this machine does.
        const [perReplica, keyed] = [effects.perReplica, perReplicaMarks.get(effects)?.keyed === true];
        if (!callIsInProcess(node, depth) || intent === 'shared-write') effects.external = true;
        if (intent === 'shared-write' && (keyed || !perReplicaMarks.get(effects)?.keyed)) effects.perReplica = perReplica;
        break;
      }
      default:
        break;
    }
    for (const key of keys[node.type] ?? []) {
      for (const child of nodesAt(node, key)) walk(child, depth);
      if (effects.coordinated) return;
    }
  };

  walk(root, 0);
  // Jobs enqueued once per id are the work's only shared effect: one job runs, however many replicas enqueue it.
  if (handedToQueue && !effects.sharedWrite) effects.coordinated = true;
  return settled(effects);
}
