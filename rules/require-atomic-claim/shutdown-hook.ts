// A read made while the process shuts down (`process.on('SIGTERM', async () => { … })`): the
// handler runs once, at the end of this one process, to settle the work it was doing (its runs
// marked failed, its jobs put back). No replica runs it on a timer or per message, so two replicas
// do not race it for the same pending rows; it is no worker claiming work.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { PROCESS_END_EVENT } from '../../src/knowledge/per-replica.js';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';

const LISTENER_METHODS: readonly string[] = TIMER_LIFETIME.listenerMethods;
const PROCESS_RECEIVERS: readonly string[] = TIMER_LIFETIME.processReceivers;

/** `process.on('SIGINT', fn)`: `fn` a handler of the process's end. */
function isShutdownHandler(fn: TSESTree.Node): boolean {
  const call = fn.parent;
  if (call?.type !== 'CallExpression' || call.arguments[1] !== fn || call.callee.type !== 'MemberExpression') return false;
  const object = call.callee.object;
  const event = call.arguments[0];
  return (
    object.type === 'Identifier' &&
    PROCESS_RECEIVERS.includes(object.name) &&
    LISTENER_METHODS.includes(memberPropertyName(call.callee) ?? '') &&
    event?.type === 'Literal' &&
    typeof event.value === 'string' &&
    PROCESS_END_EVENT.test(event.value)
  );
}

/** Whether `node` runs in a handler of the process's end (in it, or in a function nested in it). */
export function inShutdownHandler(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current) && isShutdownHandler(current)) return true;
  return false;
}
