// Whether a timer belongs to one connection, request or call rather than to the process: its
// handle is kept in a variable of the function that started it (a connection handler, a method
// run per call — one that is handed what it serves, unlike a `main()`), and it is cleared when that owner ends — in a `close`/`end`/`abort` listener, in
// a `finally`, by its own callback once its one caller is served — or it is filed under the
// call's key (`this.pollers.set(callId, { interval })`). Such a timer runs once per owner, not
// once per replica: no side effect repeats across replicas. The vocabulary is data in
// src/knowledge/schedulers.ts (TIMER_LIFETIME).
import { chainRoot } from '../../analysis/ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { CONNECTION_OPEN_EVENTS, SOCKET_NAME_WORDS } from '../../src/knowledge/connection-events.js';
import { receiverName } from '../../analysis/ast/receiver-name.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

type Variable = ReturnType<SourceCode['getDeclaredVariables']>[number];

const includes = (list: readonly string[], name: string | undefined): boolean => name !== undefined && list.includes(name);

/** The string a node spells, or undefined. */
function text(node: TSESTree.Node | undefined): string | undefined {
  return node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;
}

/** `ws.on('close', fn)`, `signal.addEventListener('abort', fn)`, `socket.onclose = fn`: the owner whose end runs `fn` (`ws`, `signal`, `socket`). */
function endListenerOwner(fn: FunctionLike): TSESTree.Node | undefined {
  return listenerOwner(fn, TIMER_LIFETIME.endEvents);
}

/** The owner whose event among `events` runs `fn`: `ws.on('open', fn)`, `this.ws.onopen = fn`. */
function listenerOwner(fn: FunctionLike, events: readonly string[]): TSESTree.Node | undefined {
  const parent = fn.parent;
  if (parent?.type === 'CallExpression' && parent.arguments.some((a) => a === fn) && parent.callee.type === 'MemberExpression') {
    const receiver = parent.callee.object;
    if (receiver.type === 'Identifier' && includes(TIMER_LIFETIME.processReceivers, receiver.name)) return undefined;
    const listens = includes(TIMER_LIFETIME.listenerMethods, memberPropertyName(parent.callee));
    return listens && includes(events, text(parent.arguments[0])) ? receiver : undefined;
  }
  if (parent?.type === 'AssignmentExpression' && parent.right === fn && parent.left.type === 'MemberExpression') {
    const name = memberPropertyName(parent.left);
    return name !== undefined && name.startsWith('on') && includes(events, name.slice(2)) ? parent.left.object : undefined;
  }
  return undefined;
}

/** `fn` runs when its owner ends. */
const runsWhenOwnerEnds = (fn: FunctionLike): boolean => endListenerOwner(fn) !== undefined;

/** The variable a local closure is bound to (`const stop = () => clearInterval(t)`). */
function closureVariable(sourceCode: SourceCode, fn: FunctionLike): Variable | undefined {
  if (fn.type === 'FunctionDeclaration') return sourceCode.getDeclaredVariables(fn)[0];
  return fn.parent?.type === 'VariableDeclarator' ? sourceCode.getDeclaredVariables(fn.parent)[0] : undefined;
}

/**
 * Whether the clear at `node` runs when the owner ends, walking up to `owner` (the function that
 * started the timer): a `finally`, an end listener, the timer's own work, or a local closure
 * (`stopTimeoutCheck`) called from one of those (one level).
 */
function clearedAtOwnerEnd(
  sourceCode: SourceCode,
  node: TSESTree.Node,
  owner: FunctionLike,
  work: FunctionLike | undefined,
  hops = 0,
): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && child !== owner; child = current, current = current.parent) {
    if (current.type === 'TryStatement' && current.finalizer === child) return true;
    if (!isFunctionLike(child)) continue;
    if (child === work || runsWhenOwnerEnds(child)) return true;
    // A callback inside the timer's own work (`message.reply(…).then(() => clearInterval(t))`): still its own work ending it.
    if (work && child.range[0] > work.range[0] && child.range[1] <= work.range[1]) continue;
    const closure = hops === 0 ? closureVariable(sourceCode, child) : undefined;
    return (closure?.references ?? []).some(
      (r) =>
        r.identifier.parent?.type === 'CallExpression' &&
        r.identifier.parent.callee === r.identifier &&
        clearedAtOwnerEnd(sourceCode, r.identifier, owner, work, 1),
    );
  }
  return false;
}

/** `clearInterval(handle)`. */
function isClearOf(node: TSESTree.Node): boolean {
  const call = node.parent;
  if (call?.type !== 'CallExpression' || call.arguments[0] !== node) return false;
  const name = call.callee.type === 'Identifier' ? call.callee.name : memberPropertyName(call.callee);
  return includes(TIMER_LIFETIME.clearers, name);
}

/** `map.set(callId, handle)`, `this.pollers.set(callId, { interval: handle })`, `this.timers.set(task.lock, handle)` with `callId` / `task` a parameter of the owner. */
function filedUnderCallKey(reference: TSESTree.Node, owner: FunctionLike): boolean {
  let value: TSESTree.Node = reference;
  if (value.parent?.type === 'Property' && value.parent.value === value && value.parent.parent?.type === 'ObjectExpression')
    value = value.parent.parent;
  const call = value.parent;
  if (call?.type !== 'CallExpression' || call.arguments[1] !== value || memberPropertyName(call.callee) !== 'set') return false;
  // The key is a parameter or one of its members (`task.lock`, `job.id`).
  const key = call.arguments[0] && chainRoot(call.arguments[0]);
  return key !== undefined && owner.params.some((p) => p.type === 'Identifier' && p.name === key.name);
}

/** The function whose local variable holds the timer's handle, and that variable. */
function localHandle(sourceCode: SourceCode, schedule: TSESTree.Node): { owner: FunctionLike; variable: Variable } | undefined {
  const parent = schedule.parent;
  let id: TSESTree.Node | undefined;
  if (parent?.type === 'VariableDeclarator' && parent.init === schedule) id = parent.id;
  else if (parent?.type === 'AssignmentExpression' && parent.right === schedule) id = parent.left;
  if (id?.type !== 'Identifier') return undefined;
  const variable = scopeVariable(sourceCode, id);
  // The function around it, also when the handle is a `const` of a block in it (`if (logFile) { const t = … }`).
  const block = variable?.scope.variableScope.block as TSESTree.Node | undefined;
  return variable && isFunctionLike(block) ? { owner: block, variable } : undefined;
}

function enclosingFunction(node: TSESTree.Node): FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/**
 * A timer armed when a connection opens and cleared when that connection ends, its handle kept in a
 * field or a module variable: `this.ws.onopen = () => { this.heartbeat = setInterval(ping, ms) }` with
 * `clearInterval(this.heartbeat)` in `this.ws.onclose` (in the same class, or the module).
 */
function armedWhileConnectionOpen(sourceCode: SourceCode, schedule: TSESTree.Node): boolean {
  const parent = schedule.parent;
  if (parent?.type !== 'AssignmentExpression' || parent.right !== schedule) return false;
  const listener = enclosingFunction(schedule);
  const owner = listener && listenerOwner(listener, CONNECTION_OPEN_EVENTS);
  const ownerName = owner && receiverName(owner);
  if (!owner || !ownerName || !SOCKET_NAME_WORDS.includes(nameWords(ownerName).at(-1) ?? '')) return false;
  const handle = sourceCode.getText(parent.left);
  const ownerText = sourceCode.getText(owner);
  let region: TSESTree.Node = listener;
  while (region.parent && region.type !== 'ClassBody') region = region.parent;
  for (const node of descendants(region, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' || !node.arguments[0] || !isClearOf(node.arguments[0])) continue;
    if (sourceCode.getText(node.arguments[0]) !== handle) continue;
    const clearing = enclosingFunction(node);
    const ended = clearing && endListenerOwner(clearing);
    if (ended && sourceCode.getText(ended) === ownerText) return true;
  }
  return false;
}

/**
 * A timer re-armed per call on the object the call is about: its handle kept on a parameter of the function
 * that sets it (`game.inactiveTimeout[1] = setTimeout(…)`), cleared there first (`if (game.inactiveTimeout[1])
 * clearTimeout(game.inactiveTimeout[1]);`) — an inactivity or debounce timer of that one object.
 */
function rearmedOnParameter(sourceCode: SourceCode, schedule: TSESTree.Node): boolean {
  const parent = schedule.parent;
  if (parent?.type !== 'AssignmentExpression' || parent.right !== schedule || parent.left.type !== 'MemberExpression') return false;
  const root = chainRoot(parent.left);
  const owner = enclosingFunction(schedule);
  const param = root && scopeVariable(sourceCode, root)?.defs[0];
  if (!owner || param?.type !== 'Parameter' || param.node !== owner) return false;
  const handle = sourceCode.getText(parent.left);
  for (const node of descendants(owner.body, sourceCode.visitorKeys)) {
    if (node.range[0] >= schedule.range[0]) break;
    if (
      node.type === 'CallExpression' &&
      node.arguments[0] &&
      isClearOf(node.arguments[0]) &&
      sourceCode.getText(node.arguments[0]) === handle
    )
      return true;
  }
  return false;
}

/** Whether the timer set at `schedule` belongs to one connection, request or call of the function that set it. */
export function ownedByOneCaller(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike | undefined): boolean {
  if (armedWhileConnectionOpen(sourceCode, schedule) || rearmedOnParameter(sourceCode, schedule)) return true;
  const local = localHandle(sourceCode, schedule);
  // The owner is handed what it serves (`(ws, req) =>`, `invoke(job)`); `main()` runs for the process.
  if (!local || local.owner.params.length === 0) return false;
  return local.variable.references.some(
    (r) =>
      (isClearOf(r.identifier) && clearedAtOwnerEnd(sourceCode, r.identifier, local.owner, work)) ||
      filedUnderCallKey(r.identifier, local.owner),
  );
}

/** `fork(…)`, `spawn(…)`, `new WebSocket(…)`: what a restart loop starts and watches (TIMER_LIFETIME.restartable). */
function startsRestartable(node: TSESTree.Node | null | undefined): boolean {
  if (node?.type !== 'CallExpression' && node?.type !== 'NewExpression') return false;
  const name = node.callee.type === 'Identifier' ? node.callee.name : memberPropertyName(node.callee);
  return includes(TIMER_LIFETIME.restartable, name);
}

/**
 * `conn` handed to a callback of a connect inside `work`: `amqp.connect(url, (err, conn) => …)`,
 * `connect(url).then((conn) => …)` — the connection the work opened, as a parameter.
 */
function openedInCallback(sourceCode: SourceCode, owner: TSESTree.Node, work: FunctionLike): boolean {
  if (owner.type !== 'Identifier') return false;
  const def = scopeVariable(sourceCode, owner)?.defs[0];
  const callback = def?.type === 'Parameter' ? (def.node as TSESTree.Node) : undefined;
  if (!isFunctionLike(callback) || callback.range[0] < work.range[0] || callback.range[1] > work.range[1]) return false;
  const call = callback.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.some((a) => a === callback)) return false;
  if (call.callee.type === 'MemberExpression' && memberPropertyName(call.callee) === 'then')
    return startsRestartable(unwrapExpression(call.callee.object, { await: true }));
  return startsRestartable(call);
}

/** Whether `work` sets `owner` (`child = fork(…)`, `const ws = new WebSocket(…)`, `this.proc = spawn(…)`) to something it restarts. */
function startedBy(sourceCode: SourceCode, owner: TSESTree.Node, work: FunctionLike): boolean {
  if (openedInCallback(sourceCode, owner, work)) return true;
  const ownerText = sourceCode.getText(owner);
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const visit = (node: TSESTree.Node): boolean => {
    if (node.type === 'AssignmentExpression' && sourceCode.getText(node.left) === ownerText && startsRestartable(node.right)) return true;
    if (node.type === 'VariableDeclarator' && sourceCode.getText(node.id) === ownerText && startsRestartable(node.init)) return true;
    return (keys[node.type] ?? []).some((key) => {
      const child = (node as unknown as Record<string, unknown>)[key];
      return (Array.isArray(child) ? child : [child]).some(
        (item) => item && typeof (item as TSESTree.Node).type === 'string' && visit(item as TSESTree.Node),
      );
    });
  };
  return visit(work.body);
}

/**
 * A self-rescheduling `setTimeout` whose reschedule runs only in an end listener of the process or
 * connection its work starts (`child = fork(…); child.on('exit', () => setTimeout(restart, backoff))`,
 * a WebSocket reconnecting on `close`): a respawn after that owner ended, not a period. A response's
 * `end` (an HTTP poll) does not count: the work does not start a process or a connection.
 */
export function restartsWhatItStarted(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  let listener: TSESTree.Node | undefined = schedule.parent;
  while (listener && !isFunctionLike(listener)) listener = listener.parent;
  if (!listener || listener === work || !isFunctionLike(listener)) return false;
  const owner = endListenerOwner(listener);
  return owner !== undefined && startedBy(sourceCode, owner, work);
}
