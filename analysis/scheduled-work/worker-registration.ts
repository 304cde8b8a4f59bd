// A worker registered by scheduled work: `await boss.work(queue, handler)`, `queue.process(handler)`,
// `channel.consume(q, handler)`, `new Worker(name, processor)` — a timer that registers this
// process's workers for queues found since its last tick. The tick runs the registration, not the
// handler: the handler runs once per job the queue delivers, so its body is no effect of the tick.
import type { TSESTree } from '@typescript-eslint/utils';
import { WORKER_CONSTRUCTORS, WORKER_REGISTRATION_METHODS } from '../../src/knowledge/work-effects.js';
import { memberPropertyName } from '../ast/property-names.js';
import { isFunctionLike } from './work-function.js';

/** The handlers a worker registration hands over (its function arguments), or none. */
export function registeredHandlers(node: TSESTree.Node): readonly TSESTree.Node[] {
  if (node.type === 'NewExpression') {
    const registers = node.callee.type === 'Identifier' && WORKER_CONSTRUCTORS.includes(node.callee.name);
    return registers ? node.arguments.filter((a) => isFunctionLike(a)) : [];
  }
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.callee.object.type === 'ThisExpression') return [];
  const name = memberPropertyName(node.callee);
  return name !== undefined && WORKER_REGISTRATION_METHODS.includes(name) ? node.arguments.filter((a) => isFunctionLike(a)) : [];
}
