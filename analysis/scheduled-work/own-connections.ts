// A send on one of this process's own open connections: `for (const client of wss.clients)
// client.send(…)`, `io.sockets.sockets.forEach((socket) => socket.emit(…))`. Each replica holds
// its own connections, so the same timer at N replicas reaches each peer once — per replica by
// construction, whatever the receiver is called (`client` is also the name of a database client).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../ast/scope-variable.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { CONNECTED_WORDS, CONNECTION_METHODS, OWN_CONNECTION_COLLECTIONS, SOCKET_HOLDER_WORDS } from '../../src/knowledge/work-effects.js';
import { receiverName } from '../ast/receiver-name.js';
import { descendants } from '../sql/descendants.js';
import { nameWords } from '../ast/name-words.js';
import type { FunctionLike } from './work-function.js';

/** `wss.clients`, `io.sockets.sockets`, `io.sockets.clients()`, `wss.clients.values()`. */
function isOwnConnections(node: TSESTree.Node): boolean {
  let value = unwrapExpression(node);
  if (value.type === 'CallExpression' && value.callee.type === 'MemberExpression' && value.arguments.length === 0) {
    const method = memberPropertyName(value.callee);
    // `wss.clients.values()`; socket.io 0.9's `io.sockets.clients()`.
    if (method === 'values') value = unwrapExpression(value.callee.object);
    else if (method === 'clients' && memberPropertyName(unwrapExpression(value.callee.object)) === 'sockets') return true;
    else return false;
  }
  return value.type === 'MemberExpression' && OWN_CONNECTION_COLLECTIONS.includes(memberPropertyName(value) ?? '');
}

/** The collection `name` walks: the right of its `for…of`, or the receiver of the `forEach` whose callback declares it. */
function walkedCollection(sourceCode: SourceCode, name: TSESTree.Identifier): TSESTree.Node | undefined {
  const variable = scopeVariable(sourceCode, name);
  const def = variable?.defs.length === 1 ? variable.defs[0]! : undefined;
  if (def?.type === 'Variable') {
    const loop = def.node.parent?.parent;
    return loop?.type === 'ForOfStatement' && loop.left === def.node.parent ? loop.right : undefined;
  }
  if (def?.type !== 'Parameter') return undefined;
  const callback = def.node;
  const call = callback.parent;
  if (call?.type !== 'CallExpression' || call.arguments[0] !== callback || call.callee.type !== 'MemberExpression') return undefined;
  const first = 'params' in callback ? (callback.params as TSESTree.Parameter[])[0] : undefined;
  if (first?.type !== 'Identifier' || first.name !== name.name) return undefined;
  return memberPropertyName(call.callee) === 'forEach' ? call.callee.object : undefined;
}

/** `client.send(data)` where `client` is one of this process's open connections. */
export function sendsOnOwnConnection(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || !CONNECTION_METHODS.includes(memberPropertyName(callee) ?? '')) return false;
  if (callee.object.type !== 'Identifier') return false;
  const collection = walkedCollection(sourceCode, callee.object);
  return collection !== undefined && isOwnConnections(collection);
}

/** `this.socketService.getAllConnectedUsers()`, `gateway.connectedClients()`: who is connected to this process's sockets. */
function readsConnectedSet(node: TSESTree.Node): boolean {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false;
  const method = memberPropertyName(node.callee);
  if (method === undefined || !nameWords(method).some((w) => CONNECTED_WORDS.includes(w))) return false;
  const receiver = receiverName(unwrapExpression(node.callee.object));
  return receiver !== undefined && nameWords(receiver).some((w) => SOCKET_HOLDER_WORDS.includes(w));
}

/**
 * A work that starts from who is connected to this process (`const users = this.sockets.getAllConnectedUsers();
 * await db.user.updateMany({ where: { id: { in: users } }, data: { lastSeen } })`): each replica
 * handles its own connections, so together they do each once.
 */
export function workOverOwnConnections(sourceCode: SourceCode, fn: FunctionLike): boolean {
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) if (readsConnectedSet(node)) return true;
  return false;
}
