// Whether a schedule is set up in the handler of a message one client sent over its own connection
// to this server: `io.on('connection', (socket) => { socket.on('plan-send', (plan) => { cron.schedule(…) }) })`.
// The client is connected to one replica, so only that replica received the message and runs what it
// set up — once per message, as the client asked, not once per replica. The socket must be the
// connection handler's parameter, named for a socket (`socket`, `ws`); a socket this process opened
// itself (`const socket = io(hubUrl)`: every replica connects and receives every broadcast) and a
// schedule in the connection handler itself (timer-lifetime.ts judges those) are not this.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { SERVER_CONNECTION_EVENTS, SOCKET_NAME_WORDS } from '../../src/knowledge/connection-events.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** `receiver.on('event', fn)`: the receiver and the event `fn` is registered for, or undefined. */
function listenedEvent(fn: FunctionLike): { receiver: TSESTree.Node; event: string } | undefined {
  const call = fn.parent;
  if (call?.type !== 'CallExpression' || call.arguments[1] !== fn || call.callee.type !== 'MemberExpression') return undefined;
  const method = memberPropertyName(call.callee);
  const event = call.arguments[0];
  if (method === undefined || !(TIMER_LIFETIME.listenerMethods as readonly string[]).includes(method)) return undefined;
  if (event?.type !== 'Literal' || typeof event.value !== 'string') return undefined;
  return { receiver: unwrapExpression(call.callee.object), event: event.value };
}

/** Whether `socket` is the first parameter of a server's connection handler (`io.on('connection', (socket) => …)`). */
function isClientConnection(sourceCode: SourceCode, socket: TSESTree.Identifier): boolean {
  if (!SOCKET_NAME_WORDS.includes(nameWords(socket.name).at(-1) ?? '')) return false;
  const def = scopeVariable(sourceCode, socket)?.defs[0];
  if (def?.type !== 'Parameter' || !isFunctionLike(def.node) || def.node.params[0] !== def.name) return false;
  const opened = listenedEvent(def.node);
  return opened !== undefined && SERVER_CONNECTION_EVENTS.includes(opened.event);
}

/** Whether `node` runs in a listener of a client's socket that a server's connection handler was handed (see the file's head). */
export function isInClientMessageHandler(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (!isFunctionLike(current)) continue;
    const listened = listenedEvent(current);
    if (listened?.receiver.type === 'Identifier' && isClientConnection(sourceCode, listened.receiver)) return true;
  }
  return false;
}
