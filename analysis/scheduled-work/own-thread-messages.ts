// A message to this process's own threads: in a file that uses `worker_threads` (or a pool of them,
// Piscina's `pool.broadcastTask(…)`), a worker
// posting to the thread that started it (`parentPort.postMessage({ cmd: 'heartbeat' })`), the
// main thread posting to one of its workers (`worker.postMessage(…)`), or the file's own wrapper
// of that call (`postMessage(worker, message)`). Each replica reaches only its own threads, so
// such a timer repeats nothing shared, whatever the verb says. Slack's `chat.postMessage` in a
// file that has nothing to do with threads stays a message sent out.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { moduleBindings } from '../imports/module-bindings.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { OWN_THREAD_MESSAGE_METHODS, OWN_THREAD_MODULES } from '../../src/knowledge/work-effects.js';

/** Whether the file binds a threads module at its top (`const { parentPort } = require('worker_threads')`, `import Piscina from '@acme/piscina'`). */
function usesThreads(sourceCode: SourceCode): boolean {
  for (const module of moduleBindings(sourceCode.ast).values())
    if (OWN_THREAD_MODULES.includes(module) || OWN_THREAD_MODULES.includes(module.replace(/^@[^/]+\//, ''))) return true;
  return false;
}

/** `parentPort.postMessage(…)`, `worker.postMessage(…)`, `postMessage(worker, …)` in a file that uses `worker_threads`. */
export function messagesOwnThreads(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  return name !== undefined && OWN_THREAD_MESSAGE_METHODS.includes(name) && usesThreads(sourceCode);
}
