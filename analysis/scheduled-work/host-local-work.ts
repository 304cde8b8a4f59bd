// Scheduled work that never leaves this host: followed through the project's own functions and
// methods (same file, imported, of an imported instance or class, a few calls deep), it does
// nothing but assign to variables, fields, Maps and Sets, read (an HTTP GET, a database find, a
// file), log, and change files on this host's disk (not a shared mount's). Every replica
// refreshing its own copy repeats nothing shared. A whitelist: a call that is not known to be one
// of those (a package's function, a write by its name, a POST, a parameter called, a `new` of a
// class other than a client only read through) keeps the work reported. Asked only of work about to be reported.
import { scopeVariable } from '../ast/scope-variable.js';
import { chainRoot } from '../ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { FS_MODULES, HOST_LOCAL_OBJECTS, IN_MEMORY_VALUE_METHODS, PURE_MODULES, QUERY_OPERATORS } from '../../src/knowledge/host-local.js';
import { IN_PROCESS_FUNCTIONS, IN_PROCESS_METHODS, IN_PROCESS_OBJECTS } from '../../src/knowledge/work-effects.js';
import { DEDUPE_OPTION_KEYS } from '../../src/knowledge/per-replica.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { declaresRowTypes } from '../../src/knowledge/model-modules.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { assignedFieldValues } from '../ast/class-fields.js';
import { holdsInMemoryStructure, importSource, isInMemoryValue, isLogWriter, valueOf } from './in-memory-values.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import type { DetectContext } from '../detect-context.js';
import { defineFunctionFact, factFollower, projectFunctionOf, type ProjectFunction } from '../modules/index.js';
import { isAwaited, isExternalReceiver, resolveCallee } from './external-effects.js';
import { drainsOwnFileQueue, drainsOwnQueue } from './own-queue-drain.js';
import type { ScheduledWork } from './scheduled-work.js';
import { instanceMethodCalled, isFunctionLike, type FunctionLike } from './work-function.js';
import { callsEmbeddedDatabase } from './embedded-database-call.js';
import { calleeName, callIntent, isClaimSql, isWriteSql, namesObjectlessIdleDrop, telemetryBindings } from './work-intent.js';
import { methodChainOf } from '../ast/method-chain.js';
import { refreshesProcessState } from './process-state-refresh.js';
import { isHostLocalFsCall } from './host-local-files.js';
import { setsOwnPresence } from './own-presence.js';
import { isCachedEntry, upkeepsOwnPool } from './own-pool.js';
import { POLL_LOOP_DELAY_NAMES } from '../../src/knowledge/schedulers.js';

/** A pause's names (`sleep`, `delay`), not the timer that runs a callback. */
const PAUSE_NAMES = POLL_LOOP_DELAY_NAMES.filter((name) => name !== 'setTimeout');
import {
  isReadCall,
  isReadOnlyClient,
  isReadingFetch,
  isSyncRead,
  namesComputation,
  readsThroughBuilder,
  readsThroughModelClass,
} from './host-local-reads.js';

export { isReadCall } from './host-local-reads.js';

export interface HostLocalOptions {
  sourceCode: SourceCode;
  telemetry?: ReadonlySet<string>;
  /** A call into another project module: whether the function it reaches stays on this host (undefined: not found). */
  followCall?: (call: TSESTree.CallExpression) => boolean | undefined;
  /** The same for a call whose name says it writes or sends out (`sendEmail`): its body overrules the name only without file writes outside a cache directory. */
  followNamedCall?: (call: TSESTree.CallExpression) => boolean | undefined;
  /** Whether a file written outside the cache or temporary directory stays on this host (default true). */
  localFiles?: boolean;
}

/** How many same-file calls deep the walk reads. */
const MAX_LOCAL_DEPTH = 3;

/** `SessionEntity.delete({ … })`: a capitalised class (not a constant) handed an object of criteria, as a model is. */
function handsModelClassCriteria(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  const receiver = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : undefined;
  return receiver?.type === 'Identifier' && /^[A-Z][A-Za-z0-9]*[a-z]/.test(receiver.name) && call.arguments[0]?.type === 'ObjectExpression';
}

/** `new RSS(opts)` with `RSS` from a package whose values stay in memory (PURE_MODULES). */
function isPureModuleValue(sourceCode: SourceCode, built: TSESTree.NewExpression): boolean {
  const source = built.callee.type === 'Identifier' ? importSource(sourceCode, built.callee) : undefined;
  return source !== undefined && PURE_MODULES.includes(source);
}

/** A call that no project function answers, known by what it names to stay on this host. */
function isKnownHostLocalCall(sourceCode: SourceCode, call: TSESTree.CallExpression, localFiles: boolean): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') {
    if (IN_PROCESS_FUNCTIONS.has(callee.name) || isLogWriter(sourceCode, callee)) return true;
    if (callee.name === 'fetch') return isReadingFetch(call);
    const source = importSource(sourceCode, callee);
    if (source === undefined) return false;
    if (isProjectModuleSpecifier(source) && namesComputation(callee.name)) return true;
    if (FS_MODULES.includes(source)) return isHostLocalFsCall(sourceCode, call, callee.name, localFiles);
    if (QUERY_OPERATORS[source]?.includes(callee.name)) return true;
    return PURE_MODULES.includes(source) || PURE_MODULES.includes(source.split('/')[0]!);
  }
  if (callee.type !== 'MemberExpression') return false;
  const method = memberPropertyName(callee);
  if (method === undefined) return false;
  // `await Delays.sleep(ms)`: a pause of a helper out of reach, handed nothing but a duration; a chat client's own presence.
  if (isPause(call, method) || setsOwnPresence(callee)) return true;
  const root = chainRoot(callee.object);
  if (root && (IN_PROCESS_OBJECTS.has(root.name) || HOST_LOCAL_OBJECTS.includes(root.name))) return true;
  const built = root && valueOf(sourceCode, root);
  if (built?.type === 'NewExpression' && (isReadOnlyClient(sourceCode, built) || isPureModuleValue(sourceCode, built))) return true;
  // `yearStart.setMonth(0)` on a `const yearStart = new Date()`: a method of a value built in memory here;
  // `this.checkedAt.toISOString()` on a field only ever given `new Date()`: the same, kept on the instance.
  if (root === callee.object && isInMemoryValue(sourceCode, built)) return true;
  if (callee.object.type === 'MemberExpression' && holdsInMemoryStructure(sourceCode, callee.object)) return true;
  // Reached only for a call no intent names (a write or a send by its name returned before).
  if (root && isOwnCollectionElement(sourceCode, root)) return true;
  // `moment(date).add(1, 'day').isBefore(now)`: a method of a value a pure package's function made.
  const made = methodChainOf(call).root;
  const maker = made.type === 'CallExpression' && made.callee.type === 'Identifier' ? made.callee : root;
  const source = maker && importSource(sourceCode, maker);
  if (source !== undefined && maker === root && FS_MODULES.includes(source)) return isHostLocalFsCall(sourceCode, call, method, localFiles);
  if (source !== undefined && (PURE_MODULES.includes(source) || PURE_MODULES.includes(source.split('/')[0]!))) return true;
  if (IN_MEMORY_VALUE_METHODS.includes(method)) return true;
  if (
    readsThroughBuilder(call) ||
    isSyncRead(call, method) ||
    readsThroughModelClass(call, method, (name) => declaresRowTypes(importSource(sourceCode, name) ?? ''))
  )
    return true;
  // `this.byServer.set(id, items)`, `logger.info(…)`; not `redis.set(…)`, not an awaited `cache.add(…)`, not a
  // model class handed criteria (`SessionEntity.delete({ expiresAt: … })`, awaited or not).
  const receiver = callee.object;
  if (
    IN_PROCESS_METHODS.has(method) &&
    receiver.type !== 'ThisExpression' &&
    !isAwaited(call) &&
    (!isExternalReceiver(receiver) || (ARRAY_WALKS.includes(method) && holdsLoadedRows(sourceCode, receiver))) &&
    !handsModelClassCriteria(call)
  )
    return true;
  // A read of a client of something outside (`axios.get`, `db.plan.findMany`, `pool.query('SELECT …')`); on any other
  // receiver a call that cannot be followed is unknown, whatever its name.
  // `guild.members.fetch()` on an entry of a client library's cache (`client.guilds.cache.values()`) reads too.
  return (isExternalReceiver(receiver) || (root !== undefined && isCachedEntry(sourceCode, root))) && isReadCall(call, method);
}

/** Array methods no client has: on rows already loaded they walk memory. */
const ARRAY_WALKS: readonly string[] = ['forEach', 'map', 'filter', 'reduce', 'some', 'every', 'findIndex', 'flatMap'];

/** `tx` of `const tx = await Ledger.find({})`: rows a read loaded, whatever the name says (`tx` is also a transaction's). */
function holdsLoadedRows(sourceCode: SourceCode, receiver: TSESTree.Node): boolean {
  const value = receiver.type === 'Identifier' ? valueOf(sourceCode, receiver) : undefined;
  const read = value?.type === 'AwaitExpression' ? unwrapExpression(value.argument) : undefined;
  const method = read?.type === 'CallExpression' ? memberPropertyName(read.callee) : undefined;
  return read?.type === 'CallExpression' && method !== undefined && isReadCall(read, method);
}

/** `sleep(ms)`, `delay(ms)` awaited, handed one duration (no callback). */
function isPause(call: TSESTree.CallExpression, name: string): boolean {
  return PAUSE_NAMES.includes(name) && isAwaited(call) && call.arguments.length === 1 && !isFunctionLike(call.arguments[0]!);
}

/** The collection an element is taken from: `this.pool` of `this.pool[id]`, `this.pages.get(id)`, `Object.values(this.pool)`. */
function collectionOf(node: TSESTree.Node): TSESTree.Node | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'MemberExpression' && value.computed) return value.object;
  if (value.type !== 'CallExpression' || value.callee.type !== 'MemberExpression') return undefined;
  const method = memberPropertyName(value.callee);
  if (method === 'get' || method === 'values' || method === 'entries') return value.callee.object;
  const object = unwrapExpression(value.callee.object);
  // `Object.values(this.pool)`, `Object.entries(this.pool)`.
  return object.type === 'Identifier' && object.name === 'Object' && (method === 'values' || method === 'entries')
    ? value.arguments[0]
    : undefined;
}

/**
 * A name bound to an element of a collection this instance keeps in memory (`this.pool[id]`, a `for…of`
 * over `Object.entries(this.pool)`): a field given only `{}`, `[]`, `new Map()`… What it holds is this process's own.
 */
function isOwnCollectionElement(sourceCode: SourceCode, root: TSESTree.Identifier): boolean {
  const value = valueOf(sourceCode, root);
  const collection = value && collectionOf(value);
  const field = collection && unwrapExpression(collection);
  if (field?.type !== 'MemberExpression' || field.object.type !== 'ThisExpression') return false;
  const values = assignedFieldValues(field, sourceCode.visitorKeys);
  return (
    values.length > 0 &&
    values.every((v) => v.type === 'ObjectExpression' || v.type === 'ArrayExpression' || isInMemoryValue(sourceCode, v))
  );
}

/** Whether running `root` stays on this host (see the header). */
export function staysOnHost(root: TSESTree.Node, options: HostLocalOptions): boolean {
  const { sourceCode } = options;
  const telemetry = options.telemetry ?? new Set<string>();
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const visited = new Set<FunctionLike>();

  const callStays = (call: TSESTree.CallExpression, depth: number): boolean => {
    const named = callIntent(call, telemetry);
    // `closeStale(db)`: a drop of idle things that names no object is read from its body, like any other call.
    const intent = named === 'per-replica' && namesObjectlessIdleDrop(calleeName(call.callee) ?? '') ? undefined : named;
    if (intent === 'per-replica') return true;
    // A function of this file (its own method, one of a module singleton it makes) is judged by its
    // body, whatever its name: a `cleanup()` that only drops expired keys of this process's Map stays here.
    const local = intent === 'coordinated' ? undefined : (resolveCallee(sourceCode, call) ?? instanceMethodCalled(sourceCode, call));
    // Elsewhere a write, a send or a lock by its name counts, unless it is a method of a structure this file keeps in
    // memory, or a function of another project module whose body stays here (`pool.cleanupStaleSlots()` of an imported class).
    if (!local && refreshesProcessState(call) && options.followCall?.(call) === undefined) return true;
    // `pool.cleanupStaleSlots()` on a pool of a project class this module builds: the upkeep of this process's own.
    if (!local && upkeepsOwnPool(sourceCode, call)) return true;
    if (!local && intent !== undefined) {
      if (intent === 'shared-write' && call.callee.type === 'MemberExpression' && holdsInMemoryStructure(sourceCode, call.callee.object))
        return true;
      return intent !== 'coordinated' && (options.followNamedCall ?? options.followCall)?.(call) === true;
    }
    if (local) {
      if (visited.has(local)) return true;
      if (depth >= MAX_LOCAL_DEPTH) return false;
      visited.add(local);
      return visit(local.body, depth + 1);
    }
    return options.followCall?.(call) ?? isKnownHostLocalCall(sourceCode, call, options.localFiles !== false);
  };

  // `new Settings(initial)` of a class of this file: its field initializers and constructor, read like a called function.
  const buildsOnHost = (callee: TSESTree.Identifier, depth: number): boolean => {
    const def = scopeVariable(sourceCode, callee)?.defs[0];
    if (def?.type !== 'ClassName' || def.node.type !== 'ClassDeclaration' || depth >= MAX_LOCAL_DEPTH) return false;
    const members = def.node.body.body;
    const parts: (TSESTree.Node | null)[] = [];
    for (const m of members) {
      if (m.type === 'MethodDefinition' && m.kind === 'constructor') parts.push(m.value.body);
      else if (m.type === 'PropertyDefinition' && m.value) parts.push(m.value);
    }
    return def.node.superClass === null && parts.every((part) => part !== null && visit(part, depth + 1));
  };

  const visit = (node: TSESTree.Node, depth: number): boolean => {
    switch (node.type) {
      case 'CallExpression':
        // A query on a database file of this host: its SQL writes that file only; a callback it is handed still counts.
        if (callsEmbeddedDatabase(sourceCode, node)) return node.arguments.every((arg) => !isFunctionLike(arg) || visit(arg, depth));
        if (!callStays(node, depth)) return false;
        break;
      case 'NewExpression':
        if (node.callee.type !== 'Identifier') return false;
        if (
          !isInMemoryValue(sourceCode, node) &&
          !isReadOnlyClient(sourceCode, node) &&
          !isPureModuleValue(sourceCode, node) &&
          !buildsOnHost(node.callee, depth)
        )
          return false;
        break;
      case 'TaggedTemplateExpression':
      case 'ImportExpression':
      case 'YieldExpression':
        return false;
      case 'ForOfStatement':
        if (node.await) return false;
        break;
      case 'Literal':
        if (typeof node.value === 'string' && (isWriteSql(node.value) || isClaimSql(node.value))) return false;
        break;
      case 'TemplateElement':
        if (isWriteSql(node.value.raw) || isClaimSql(node.value.raw)) return false;
        break;
      case 'Property':
        if (DEDUPE_OPTION_KEYS.includes(propertyKeyName(node) ?? '')) return false;
        break;
      default:
        break;
    }
    for (const key of keys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child])
        if (item && typeof (item as TSESTree.Node).type === 'string' && !visit(item as TSESTree.Node, depth)) return false;
    }
    return true;
  };
  return visit(root, 0);
}

/** Whether a project function stays on this host without writing files outside a cache directory: read to overrule a name. */
const hostLocalWithoutFiles: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>(
  'stays on this host, no files written',
  false,
  (fn, follow) => {
    const telemetry = telemetryBindings(fn.module.sourceCode.ast);
    const followCall = factFollower(hostLocalWithoutFiles, follow);
    return staysOnHost(fn.fn.body, { sourceCode: fn.module.sourceCode, telemetry, followCall, localFiles: false });
  },
);

/** Whether a project function stays on this host, the calls it makes into other modules followed. */
export const hostLocalFunction: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>(
  'stays on this host',
  false,
  (fn, follow) => {
    const telemetry = telemetryBindings(fn.module.sourceCode.ast);
    const followCall = factFollower(hostLocalFunction, follow);
    return staysOnHost(fn.fn.body, {
      sourceCode: fn.module.sourceCode,
      telemetry,
      followCall,
      followNamedCall: factFollower(hostLocalWithoutFiles, follow),
    });
  },
);

/** `followCall` for the linted file: calls into the project's other modules, judged by the function they reach. */
export function followHostLocalFrom(context: DetectContext): (call: TSESTree.CallExpression) => boolean | undefined {
  return factFollower(hostLocalFunction, (callee) => projectFunctionOf(context, callee));
}

/** `followNamedCall` for the linted file. */
function followNamedFrom(context: DetectContext): (call: TSESTree.CallExpression) => boolean | undefined {
  return factFollower(hostLocalWithoutFiles, (callee) => projectFunctionOf(context, callee));
}

/** A work function defined in another module, handed over by name (`setInterval(tracker.refresh, ms)`). */
export function hostLocalElsewhere(context: DetectContext, expression: TSESTree.Node | undefined): boolean {
  const target = expression && projectFunctionOf(context, expression);
  return target !== undefined && hostLocalFunction(target);
}

/**
 * Whether a scheduled work stays on this host: its work function or loop body (or the function of
 * another module it names) read by `staysOnHost`, or a timer that drains its own module's queue.
 */
export function scheduledWorkStaysOnHost(context: DetectContext, work: ScheduledWork, telemetry?: ReadonlySet<string>): boolean {
  const fn = work.resolved?.fn;
  if (work.entry.bareTimer && fn && (drainsOwnQueue(context.sourceCode, fn) || drainsOwnFileQueue(context.sourceCode, fn))) return true;
  const body = fn ? fn.body : work.loopBody;
  if (body)
    return staysOnHost(body, {
      sourceCode: context.sourceCode,
      telemetry,
      followCall: followHostLocalFrom(context),
      followNamedCall: followNamedFrom(context),
    });
  return hostLocalElsewhere(context, work.expression);
}
