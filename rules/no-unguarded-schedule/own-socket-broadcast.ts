// A timer that only tells this process's socket.io clients something it already holds: a countdown
// or a clock computed in memory (`remaining = endsAt - Date.now()`) and emitted by the socket.io
// server (`io.emit(…)`, `runtime.io.to(room).emit(…)`), awaiting nothing and reaching nothing else.
// Each replica speaks to the clients connected to it. An `emit` on a bus, a queue or an event
// emitter, an awaited read, or any other effect beside the emit keeps the report.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { SOCKET_ROOM_METHODS, SOCKET_SERVER_NAMES } from '../../src/knowledge/work-effects.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { receiverName } from '../../analysis/ast/receiver-name.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { workEffects, type EffectsOptions } from '../../analysis/scheduled-work/external-effects.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';

const EMIT = 'emit';

/** `io.emit(…)`, `runtime.io.emit(…)`, `io.to(room).emit(…)`: an emit of the socket.io server. */
function isSocketServerEmit(node: TSESTree.Node): node is TSESTree.CallExpression {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || memberPropertyName(node.callee) !== EMIT) return false;
  let receiver = unwrapExpression(node.callee.object);
  while (
    receiver.type === 'CallExpression' &&
    receiver.callee.type === 'MemberExpression' &&
    SOCKET_ROOM_METHODS.includes(memberPropertyName(receiver.callee) ?? '')
  )
    receiver = unwrapExpression(receiver.callee.object);
  if (receiver.type === 'CallExpression') return false;
  const name = receiverName(receiver);
  return name !== undefined && SOCKET_SERVER_NAMES.includes(name);
}

/** Whether the bare timer's work only emits, through the socket.io server, values it computes in memory. */
export function emitsOnlyToOwnSockets(sourceCode: SourceCode, fn: FunctionLike, effectsOptions: EffectsOptions): boolean {
  if (fn.async) return false;
  const inside = [...descendants(fn.body, sourceCode.visitorKeys)];
  const emits = inside.filter(isSocketServerEmit);
  if (emits.length === 0 || inside.some((node) => node.type === 'AwaitExpression')) return false;
  return !workEffects(fn.body, { ...effectsOptions, skip: new Set(emits) }).external;
}
