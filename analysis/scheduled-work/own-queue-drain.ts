// A timer that paces an in-process queue: its work takes the next item off a queue that the same
// module fills itself (`state.queue.push(item)` where a caller hands work in, `queue.shift()` in
// the timer). Each item was handed in once, by a caller of this process, and runs once: the timer
// only spaces the runs out (a rate limiter, a throttle, a retry backlog). At N replicas each
// replica drains what its own callers queued; nothing repeats per replica.
import { chainRoot, chainStart } from '../ast/chain-root.js';
import { scopeVariable } from '../ast/scope-variable.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { FS_MODULES, QUEUE_FILE_READS, QUEUE_FILE_WRITES, QUEUE_PUT_METHODS, QUEUE_TAKE_METHODS } from '../../src/knowledge/host-local.js';
import { importSource } from './in-memory-values.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import type { FunctionLike } from './work-function.js';

/** `[]`, `{ queue: [] }`, `byId[id] || { queue: [] }`, `new Map()`: a value built in memory here. */
function buildsInMemory(node: TSESTree.Node | null | undefined): boolean {
  if (!node) return false;
  const value = unwrapExpression(node);
  if (value.type === 'ArrayExpression' || value.type === 'ObjectExpression') return true;
  if (value.type === 'NewExpression') return value.callee.type === 'Identifier' && ['Map', 'Set', 'Array'].includes(value.callee.name);
  if (value.type === 'LogicalExpression') return buildsInMemory(value.left) || buildsInMemory(value.right);
  if (value.type === 'ConditionalExpression') return buildsInMemory(value.consequent) && buildsInMemory(value.alternate);
  return false;
}

/** The queue is this module's: a field of the instance, or a variable of this file that holds a collection built here. */
function isOwnedQueue(sourceCode: SourceCode, queue: TSESTree.Node): boolean {
  const root = chainStart(queue);
  if (root.type === 'ThisExpression') return true;
  if (root.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  return def?.type === 'Variable' && def.node.type === 'VariableDeclarator' && buildsInMemory(def.node.init as TSESTree.Node | null);
}

function isInside(inner: TSESTree.Node, outer: TSESTree.Node): boolean {
  return inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];
}

/** `queue.shift()` / `queue.push(x)`: the queue's text when the call is one of `methods`. */
function queueOf(sourceCode: SourceCode, node: TSESTree.Node, methods: readonly string[]): string | undefined {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
  const method = memberPropertyName(node.callee);
  return method !== undefined && methods.includes(method) ? sourceCode.getText(node.callee.object) : undefined;
}

/** Whether the timer's work takes items off a queue its module fills elsewhere (see the header). */
export function drainsOwnQueue(sourceCode: SourceCode, work: FunctionLike): boolean {
  const taken = new Set<string>();
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    const queue = queueOf(sourceCode, node, QUEUE_TAKE_METHODS);
    if (queue !== undefined && node.type === 'CallExpression' && node.arguments.length === 0) {
      if (isOwnedQueue(sourceCode, (node.callee as TSESTree.MemberExpression).object)) taken.add(queue);
    }
  }
  if (taken.size === 0) return false;
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    const queue = queueOf(sourceCode, node, QUEUE_PUT_METHODS);
    if (queue !== undefined && taken.has(queue) && !isInside(node, work)) return true;
  }
  return false;
}

/** `fs.readFile(QUEUE_FILE, …)`, `readJsonSync(QUEUE_FILE)`: the path variable a file-system call of `methods` is handed first. */
function fsPathOf(sourceCode: SourceCode, node: TSESTree.Node, methods: readonly string[]): TSESTree.Identifier | undefined {
  if (node.type !== 'CallExpression' || node.arguments[0]?.type !== 'Identifier') return undefined;
  const callee = node.callee;
  const method = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  if (method === undefined || !methods.includes(method.replace(/Sync$/, ''))) return undefined;
  const root = chainRoot(callee);
  const source = root && importSource(sourceCode, root);
  return source !== undefined && FS_MODULES.includes(source) ? node.arguments[0] : undefined;
}

/**
 * A timer draining a queue kept in a file of this host that its module fills (`enqueue()` writes
 * `QUEUE_FILE`, the timer reads it and runs what is due): the items were handed in by this
 * process's callers, the file lies on this host. At N replicas each drains its own file.
 */
export function drainsOwnFileQueue(sourceCode: SourceCode, work: FunctionLike): boolean {
  const read = new Set<unknown>();
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    const path = fsPathOf(sourceCode, node, QUEUE_FILE_READS);
    const variable = path && scopeVariable(sourceCode, path);
    if (variable && variable.scope.type === 'module') read.add(variable);
  }
  if (read.size === 0) return false;
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    const path = isInside(node, work) ? undefined : fsPathOf(sourceCode, node, QUEUE_FILE_WRITES);
    if (path && read.has(scopeVariable(sourceCode, path))) return true;
  }
  return false;
}
