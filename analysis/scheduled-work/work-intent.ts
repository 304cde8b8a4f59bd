// What one call in scheduled work says about the work's intent, read from names (the catalogue of
// words is src/knowledge/per-replica.ts): it takes a lock or claims (coordinated), it belongs to
// this instance only (telemetry, heartbeat, own-buffer flush…), or it writes shared state / sends
// something out (a shared effect).
import type { TSESTree } from '@typescript-eslint/utils';
import {
  AGE_ADJECTIVES,
  BUILT_IN_PROCESS_NOUNS,
  CLEAR_BY_AGE_VERB,
  CREDENTIAL_PATH_SEGMENTS,
  CONDITIONAL_CLAIM_VERBS,
  DEQUEUE_WORDS,
  IN_PROCESS_CLEAR_NOUNS,
  JOB_WORDS,
  TAKE_NEXT_VERBS,
  LOCK_NAME_TAIL,
  LOCK_VERBS,
  LOCK_RENEW_VERBS,
  LOCK_WORDS,
  LOCK_WORD_ENDINGS,
  MACHINE_ID_NAMES,
  MODEL_CLASS_WRITE_VERBS,
  MACHINE_OBJECTS,
  OWN_RECORD_HOLDERS,
  OWN_RECORD_KEYS,
  PER_REPLICA_WORDS,
  PER_REPLICA_WORD_PAIRS,
  PER_REPLICA_STALE_ADJECTIVES,
  PER_REPLICA_STALE_NOUNS,
  PER_REPLICA_STALE_VERBS,
  PROCESS_MEASUREMENTS,
  RECEIVER_BOUND_VERBS,
  SHARED_WRITE_VERBS,
  TELEMETRY_MODULES,
  TELEMETRY_MODULE_WORDS,
  VERB_PREFIXES,
  WRITE_HTTP_METHODS,
} from '../../src/knowledge/per-replica.js';
import { NEXT_PLANNING_VERBS } from '../../src/knowledge/next-job.js';
import { SKIP_LOCKED_TEXT } from '../../src/knowledge/row-leases.js';
import { REFRESH_VIEW_SQL } from '../../src/knowledge/start-ddl.js';
import { EXTERNAL_RECEIVER_WORDS, LOG_METHODS, OWN_CONNECTION_DROP_PAIR } from '../../src/knowledge/work-effects.js';
import { LOCKED_ADJECTIVES, LOCKED_RUN_VERBS, ONCE_ONLY_WORDS, ONCE_WORD } from '../../src/knowledge/lock-names.js';
import { joinedVerbs, verbOf } from './name-verbs.js';
import { postsHeartbeat } from './heartbeat-post.js';
import { COALESCING_LOCK_VERBS } from '../../src/knowledge/lock-libraries.js';
import { writesThroughModelObject } from './model-object-write.js';
import { writesThroughTableBuilder } from './table-builder-write.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { isLookedUpExternalEntry } from './looked-up-receiver.js';
import { methodChainOf, outermostCallOf } from '../ast/method-chain.js';
import { isAwaited, unwrapExpression } from '../ast/unwrapped-expression.js';
import { chainRoot } from '../ast/chain-root.js';
import { nameWords } from '../ast/name-words.js';

export type CallIntent = 'coordinated' | 'per-replica' | 'shared-write' | undefined;

const has = (list: readonly string[], word: string | undefined): boolean => word !== undefined && list.includes(word);

/** Whether a name says "this instance only": `sendMachineTelemetry`, `pingRedis`, `flushBuffer`, `reloadCache`. */
export function isPerReplicaName(name: string): boolean {
  const words = nameWords(name);
  if (words.some((w) => PER_REPLICA_WORDS.includes(w))) return true;
  if (PER_REPLICA_WORD_PAIRS.some((pair) => namesPair(words, pair))) return true;
  return dropsOwnIdle(words);
}

const namesPair = (words: readonly string[], [a, b]: readonly [readonly string[], readonly string[]]): boolean =>
  words.some((w) => a.includes(w)) && words.some((w) => b.includes(w));

/** `pruneConnections`, `closeSockets`: this process dropping its own connections, housekeeping beside the work. */
export function namesOwnConnectionDrop(name: string): boolean {
  return namesPair(nameWords(name), OWN_CONNECTION_DROP_PAIR);
}

/**
 * `closeStale`, `pruneIdle`: a drop of idle things that names no object. Per replica by its name
 * (this process's idle connections), yet what it drops is read from its body: rows of a shared
 * table when the body writes them (`UPDATE tickets … WHERE updated_at < …`).
 */
export function namesObjectlessIdleDrop(name: string): boolean {
  const words = nameWords(name);
  return dropsOwnIdle(words) && PER_REPLICA_STALE_ADJECTIVES.includes(words.at(-1) ?? '');
}

/** `closeIdle`, `pruneStale`, `cleanStaleLocksForTask`; not `cleanupStaleSessions` (shared rows by name). */
function dropsOwnIdle(words: readonly string[]): boolean {
  if (!words.some((w) => PER_REPLICA_STALE_VERBS.includes(w))) return false;
  const at = words.findIndex((w) => PER_REPLICA_STALE_ADJECTIVES.includes(w));
  if (at < 0) return false;
  const next = words[at + 1];
  return next === undefined || PER_REPLICA_STALE_NOUNS.includes(next);
}

/** `acquireLock`, `tryLock`, `withLock`, `isLeader`, `tryClaimTask`, `trySetCronTime`. */
function isLockName(name: string): boolean {
  const all = nameWords(name);
  // `executeWithLock`, `runWithLock`, `doUnderLock`: a prefix before the verb, as `verbOf` skips it.
  const words = has(VERB_PREFIXES, all[0]) && all.length > 2 && has(LOCK_VERBS, all[1]) ? all.slice(1) : all;
  if (words[0] === 'unlock' || words[0] === 'release' || words[0] === 'renew' || words[0] === 'extend') return false;
  // `lockedTick(name, lockId, fn)`: a wrapper running what it is handed under a lock.
  if (has(LOCKED_ADJECTIVES, words[0]) && words.length > 1) return true;
  // `runLocked(task)`, `executeLocked(key, fn)`: a verb that runs, then the adjective.
  if (words.length === 2 && has(LOCKED_RUN_VERBS, words[0]) && has(LOCKED_ADJECTIVES, words[1])) return true;
  if (words.includes(ONCE_WORD) && words.some((w) => ONCE_ONLY_WORDS.includes(w))) return true; // `runOnlyOnce(fn, name)`
  const lockAt = words.findIndex((w) => LOCK_WORDS.includes(w));
  if (lockAt >= 0 && words.slice(lockAt + 1).every((w) => LOCK_NAME_TAIL.includes(w)) && (has(LOCK_VERBS, words[0]) || words.length === 1))
    return true;
  return words[0] === 'try' && has(CONDITIONAL_CLAIM_VERBS, words[1]);
}

/** `sweep`, `this.sweep`, `this.#sweep` (a private method's name without its `#`). */
export function calleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.property.type === 'PrivateIdentifier') return callee.property.name;
  return memberPropertyName(callee);
}

/** `lock.extend(ms)`, `this.lease.renew()`: keeping a lock or lease this process holds — the guard itself, not guarded work. */
function renewsHeldLock(name: string, receiver: readonly string[]): boolean {
  return has(LOCK_RENEW_VERBS, nameWords(name)[0]) && receiver.some((w) => LOCK_WORDS.includes(w));
}

const isThisCall = (call: TSESTree.CallExpression): boolean =>
  call.callee.type === 'MemberExpression' && call.callee.object.type === 'ThisExpression';

/** The name of the class whose method `node` sits in (`class CompactionLease { … }`). */
function enclosingClassName(node: TSESTree.Node): string | undefined {
  for (let current = node.parent; current; current = current.parent)
    if (current.type === 'ClassDeclaration' || current.type === 'ClassExpression') return current.id?.name;
  return undefined;
}

/**
 * `renew` of `class CompactionLease` / `class RedisLock` (called as `this.renew()`, or scheduled as
 * the method itself): the instance is the lease or lock (the last word of its class's name), and
 * the method keeps it — the guard itself, like `lock.extend()`. `node` is the call or the method.
 */
export function renewsItself(node: TSESTree.Node, name: string): boolean {
  if (!has(LOCK_RENEW_VERBS, nameWords(name)[0])) return false;
  const owner = enclosingClassName(node);
  return owner !== undefined && LOCK_WORDS.includes(nameWords(owner).at(-1) ?? '');
}

function receiverWords(callee: TSESTree.Node): readonly string[] {
  if (callee.type !== 'MemberExpression') return [];
  const name = receiverName(callee.object);
  return name === undefined ? [] : nameWords(name);
}

/**
 * The receiver's words and those of the object it is a member of: a client's per-model delegate
 * (`prisma.invoice.create`, `this.db.users.update`) is reached through the client, one link up.
 */
function clientWords(callee: TSESTree.Node): readonly string[] {
  const own = receiverWords(callee);
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'MemberExpression') return own;
  const name = receiverName(callee.object.object);
  return name === undefined ? own : [...own, ...nameWords(name)];
}

function isTelemetryModule(module: string): boolean {
  return TELEMETRY_MODULES.includes(module) || TELEMETRY_MODULE_WORDS.some((w) => module.toLowerCase().includes(w));
}

/** Local names bound to telemetry modules (`import { track } from '@acme/telemetry'`, `const statsd = require('hot-shots')`). */
export function telemetryBindings(program: TSESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && isTelemetryModule(String(statement.source.value))) {
      for (const specifier of statement.specifiers) names.add(specifier.local.name);
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init;
      if (init?.type !== 'CallExpression' || init.callee.type !== 'Identifier' || init.callee.name !== 'require') continue;
      const source = init.arguments[0];
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !isTelemetryModule(source.value)) continue;
      if (declarator.id.type === 'Identifier') names.add(declarator.id.name);
      if (declarator.id.type === 'ObjectPattern')
        for (const p of declarator.id.properties) if (p.type === 'Property' && p.value.type === 'Identifier') names.add(p.value.name);
    }
  }
  return names;
}

/** `fetch(url, { method: 'POST' })`, `axios.post(…)`, `http.request({ method: 'PUT' })`. */
/** `fetch(`${API}/oauth/token`, { method: 'POST' })`: a request for this process's own credentials (CREDENTIAL_PATH_SEGMENTS). */
function asksForCredentials(url: TSESTree.Node | undefined): boolean {
  const text = sqlText(url);
  if (text === undefined) return false;
  const path = text.split(/[?#]/)[0]!.replace(/\/+$/, '');
  return CREDENTIAL_PATH_SEGMENTS.includes(path.slice(path.lastIndexOf('/') + 1).toLowerCase());
}

function isWriteHttp(call: TSESTree.CallExpression, name: string | undefined, receiver: readonly string[]): boolean {
  if (asksForCredentials(call.arguments[0])) return false;
  if (name && WRITE_HTTP_METHODS.includes(name.toUpperCase()) && receiver.some((w) => EXTERNAL_RECEIVER_WORDS.has(w))) return true;
  return call.arguments.some(
    (a) =>
      a.type === 'ObjectExpression' &&
      a.properties.some(
        (p) =>
          p.type === 'Property' &&
          propertyKeyName(p) === 'method' &&
          p.value.type === 'Literal' &&
          WRITE_HTTP_METHODS.includes(String(p.value.value).toUpperCase()),
      ),
  );
}

// The verb first, then a space: `update-checker` or `delete:user` is a log tag or an event name, not a statement.
const WRITE_SQL = /^\s*(insert|update|delete|merge|upsert|truncate)(?=\s|$)|\b(insert\s+into|delete\s+from)\b|\bupdate\s+\S+\s+set\b/i;

/** The text of a string or template argument (a template's holes left as spaces), for SQL or a command line. */
export function sqlText(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.raw).join(' ');
  return undefined;
}

export function isWriteSql(text: string | undefined): boolean {
  return text !== undefined && (WRITE_SQL.test(text) || REFRESH_VIEW_SQL.test(text));
}

/** `… FOR UPDATE SKIP LOCKED`: the statement claims rows, each handed to one replica. */
export function isClaimSql(text: string | undefined): boolean {
  return text !== undefined && SKIP_LOCKED_TEXT.test(text);
}

/** `queue.next(name)`, `db.getNextJobToRun(…)`, `dequeue()`: taking the next job from a queue (not `job.nextDate()`). */
function isDequeue(name: string, receiver: readonly string[]): boolean {
  const words = nameWords(name);
  if (words.some((w) => DEQUEUE_WORDS.includes(w))) return true;
  if (words.length === 1 && words[0] === 'next') return receiver.some((w) => JOB_WORDS.includes(w));
  const takesNext = words[0] === 'next' || (has(TAKE_NEXT_VERBS, words[0]) && words[1] === 'next');
  if (takesNext && words.some((w) => JOB_WORDS.includes(w))) return true;
  // `processNextJob`, `renderNextJob`: working on the next job taken, by any verb that does not plan one.
  return words.length === 3 && words[1] === 'next' && JOB_WORDS.includes(words[2]!) && !has(NEXT_PLANNING_VERBS, words[0]);
}

/** `createQueryBuilder`, `createCursor`: a `create…` method that builds a value in this process, not a record. */
export function createsInProcessValue(name: string | undefined): boolean {
  const words = name === undefined ? [] : nameWords(name);
  return words.length > 1 && words[0] === 'create' && has(BUILT_IN_PROCESS_NOUNS, words.at(-1));
}

/** The chain a `createQueryBuilder()` starts writes (`.update(User).set(…).execute()`), by a write verb of one of its methods. */
function chainWrites(call: TSESTree.CallExpression): boolean {
  return methodChainOf(outermostCallOf(call)).links.some(
    (link) => link.call !== call && link.name !== undefined && has(SHARED_WRITE_VERBS, verbOf(nameWords(link.name))),
  );
}

/**
 * `await Session.delete({ expired: true })`: a model class (a capitalised name, not a constant)
 * writing rows through its own static method (Active Record), awaited and handed criteria or
 * values as an object — not `Cache.delete(key)` on a `Map`, which is neither awaited nor given one.
 */
function isModelClassWrite(call: TSESTree.CallExpression, verb: string | undefined): boolean {
  return has(MODEL_CLASS_WRITE_VERBS, verb) && call.arguments[0]?.type === 'ObjectExpression' && callsModelClass(call);
}

/**
 * `await Reminder.find({ … })`, `await Ban.findAll()`: an awaited static call on a model class (a
 * capitalised name, not a constant), handed criteria as an object or nothing — not `Promise.all([…])`.
 */
export function callsModelClass(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || !isAwaited(call)) return false;
  const criteria = call.arguments[0];
  return /^[A-Z][A-Za-z0-9]*[a-z]/.test(callee.object.name) && (criteria === undefined || criteria.type === 'ObjectExpression');
}

/** `clearExpiredPermissions`, `clearOldExpiredMutes`: rows past their time deleted; not `clearExpiredCache`, `clearStaleConnections`. */
function clearsByAge(words: readonly string[]): boolean {
  const at = words.indexOf(CLEAR_BY_AGE_VERB);
  return (
    has(AGE_ADJECTIVES, words[at + 1]) && !words.some((w) => IN_PROCESS_CLEAR_NOUNS.includes(w) || PER_REPLICA_STALE_NOUNS.includes(w))
  );
}

/** The intent of one call, or undefined when its name says nothing. */
export function callIntent(call: TSESTree.CallExpression, telemetry: ReadonlySet<string>): CallIntent {
  return calleeIntent(call.callee, call, telemetry);
}

/**
 * What a function handed over by reference says by its name, as a call of it would
 * (`setInterval(pruneRooms, ms, client)` reads as `pruneRooms(client)`): what its arguments,
 * its chain or its awaiting would add is unknown.
 */
export function referenceIntent(reference: TSESTree.Node, telemetry: ReadonlySet<string>): CallIntent {
  return calleeIntent(unwrapExpression(reference), undefined, telemetry);
}

/** What a lock-named receiver is asked to take its lock (`locking.acquire`, `tallyLock.coalesce`). */
const RECEIVER_LOCK_VERBS: readonly string[] = [...LOCK_VERBS, ...COALESCING_LOCK_VERBS];

function calleeIntent(callee: TSESTree.Node, call: TSESTree.CallExpression | undefined, telemetry: ReadonlySet<string>): CallIntent {
  const name = calleeName(callee);
  const receiver = receiverWords(callee);
  if (name !== undefined) {
    if (isLockName(name)) return 'coordinated';
    const namesLock = (w: string) => LOCK_WORDS.some((l) => w.startsWith(l) && LOCK_WORD_ENDINGS.includes(w.slice(l.length)));
    if (receiver.some(namesLock) && has(RECEIVER_LOCK_VERBS, nameWords(name)[0])) return 'coordinated';
    if (isDequeue(name, receiver)) return 'coordinated';
  }
  const root = chainRoot(callee, { calls: true })?.name;
  if (root !== undefined && telemetry.has(root)) return 'per-replica';
  if (name !== undefined && (renewsHeldLock(name, receiver) || (call && isThisCall(call) && renewsItself(call, name))))
    return 'per-replica';
  if (name !== undefined && isPerReplicaName(name)) return 'per-replica';
  if (call) {
    // A POST to `…/heartbeat`: this process's own liveness report (heartbeat-post.ts).
    if (isWriteHttp(call, name, receiver)) return postsHeartbeat(call) ? 'per-replica' : 'shared-write';
    // `axios.post('/auth/login', creds)`: signing this replica in, whatever the verb says.
    if (name !== undefined && WRITE_HTTP_METHODS.includes(name.toUpperCase()) && asksForCredentials(call.arguments[0])) return undefined;
    if (isWriteSql(sqlText(call.arguments[0]))) return 'shared-write';
  }
  if (name === undefined) return undefined;
  if (createsInProcessValue(name)) return call && chainWrites(call) ? 'shared-write' : undefined;
  const words = nameWords(name);
  const verb = verbOf(words);
  // `findAndSendReminders`, `checkAndNotifyOwners`: a second verb joined by `and` names what the work does too.
  if (joinedVerbs(words).some((joined) => has(SHARED_WRITE_VERBS, joined))) return 'shared-write';
  if (verb === CLEAR_BY_AGE_VERB) return clearsByAge(words) ? 'shared-write' : undefined;
  // `await fastify.ordersModel.markPaid(id)`: a data-access object the application instance carries.
  if (call && writesThroughModelObject(call, words)) return 'shared-write';
  // `await knex('thumbnail_cache').where('id', id).del()`: a builder started on a table.
  if (call && writesThroughTableBuilder(call)) return 'shared-write';
  if (!has(SHARED_WRITE_VERBS, verb) && !has(RECEIVER_BOUND_VERBS, verb)) return undefined;
  const compound = words.length > 1;
  const externalReceiver =
    clientWords(callee).some((w) => EXTERNAL_RECEIVER_WORDS.has(w)) ||
    (callee.type === 'MemberExpression' && isLookedUpExternalEntry(callee.object));
  if (has(RECEIVER_BOUND_VERBS, verb) && !compound)
    return externalReceiver || (call && (isModelClassWrite(call, verb) || awaitedRowDelete(call, verb))) ? 'shared-write' : undefined;
  return has(SHARED_WRITE_VERBS, verb) ? 'shared-write' : undefined;
}

/**
 * `await this.tracesStore.delete(id)`: a `Map`'s `delete` answers at once, so one awaited on a
 * dependency the instance holds is a store's, sent out of the process. Only `delete` and
 * `remove` (an awaited `set` or `add` may be an in-memory cache's promise API), and only on
 * `this.…` (an imported name's awaited `delete` stays unknown).
 */
function awaitedRowDelete(call: TSESTree.CallExpression, verb: string | undefined): boolean {
  if ((verb !== 'delete' && verb !== 'remove') || !isAwaited(call)) return false;
  const callee = unwrapExpression(call.callee);
  return callee.type === 'MemberExpression' && callee.object.type === 'MemberExpression' && callee.object.object.type === 'ThisExpression';
}

/** `this.worker`: the record this process registered for itself (OWN_RECORD_HOLDERS). */
function isOwnRecord(node: TSESTree.Node): boolean {
  const value = node.type === 'TSNonNullExpression' ? node.expression : node;
  return value.type === 'MemberExpression' && value.object.type === 'ThisExpression' && has(OWN_RECORD_HOLDERS, memberPropertyName(value));
}

/**
 * `this.machineId`, `nodeId`, `os.hostname()`: data keyed to this machine. A member of any other
 * object names that object's host (`url.hostname`, `req.hostname`), and a name on its own that
 * says only `hostname` is as often a URL's: neither is this machine.
 */
export function isMachineIdentifier(node: TSESTree.Node): boolean {
  if (node.type === 'MemberExpression') {
    const name = memberPropertyName(node);
    if (name !== undefined && OWN_RECORD_KEYS.includes(name) && isOwnRecord(node.object)) return true;
    if (name === undefined || !MACHINE_ID_NAMES.includes(name)) return false;
    const object = node.object;
    return object.type === 'ThisExpression' || (object.type === 'Identifier' && MACHINE_OBJECTS.includes(object.name));
  }
  if (node.type !== 'Identifier' || node.name === 'hostname' || !MACHINE_ID_NAMES.includes(node.name)) return false;
  // The name of a member or a key is its object's, asked of the member expression itself.
  const parent = node.parent;
  if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed) return false;
  return !(parent?.type === 'Property' && parent.key === node && !parent.shorthand);
}

/**
 * `process.memoryUsage()`, `writeHeapSnapshot(path)`: a measurement of this process
 * (PROCESS_MEASUREMENTS) that the work uses, not one a log line only prints beside other work.
 */
export function measuresThisProcess(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  return name !== undefined && PROCESS_MEASUREMENTS.includes(name) && usedBeyondLogLine(call);
}

/** The call's value is used by the work, not only printed by a log line around it. */
export function usedBeyondLogLine(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  for (let depth = 0; depth < 4 && node.parent; depth++, node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === 'CallExpression' && parent.callee !== node && LOG_METHODS.includes(memberPropertyName(parent.callee) ?? ''))
      return false;
  }
  return true;
}
