// A watchdog of this process: a timer whose work ends the process it runs in (`process.exit(1)`,
// `process.kill(process.pid)`, `killProcess()`) when it finds it stale or stuck. Each replica
// watches itself, so every replica must run it. An exit inside a `try` or a `catch` (a job that
// stops on failure) is no watchdog: the work there is the job.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { PROCESS_END_NOUNS, PROCESS_END_VERBS } from '../../src/knowledge/process-state.js';
import { isProcessGlobal } from '../ast/process-env.js';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';
import { nameWords } from '../ast/name-words.js';
import type { FunctionLike } from './work-function.js';

/** `process.exit(…)`, `process.abort()`, `process.kill(process.pid, …)`, `killProcess()`. */
function endsProcess(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type === 'MemberExpression' && isProcessGlobal(callee.object)) {
    const method = memberPropertyName(callee);
    if (method === 'exit' || method === 'abort') return true;
    const target = call.arguments[0];
    return (
      method === 'kill' && target?.type === 'MemberExpression' && isProcessGlobal(target.object) && memberPropertyName(target) === 'pid'
    );
  }
  if (callee.type !== 'Identifier') return false;
  const words = nameWords(callee.name);
  return PROCESS_END_VERBS.includes(words[0] ?? '') && words.slice(1).some((w) => PROCESS_END_NOUNS.includes(w));
}

/** Whether `node` sits in a `try` block or a `catch` between it and `fn`. */
function inTry(node: TSESTree.Node, fn: FunctionLike): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent)
    if (current.type === 'TryStatement' || current.type === 'CatchClause') return true;
  return false;
}

/** Whether the timer's work ends this process outside any `try` (see the header). */
export function endsThisProcess(sourceCode: SourceCode, fn: FunctionLike): boolean {
  for (const node of descendants(fn.body, sourceCode.visitorKeys))
    if (node.type === 'CallExpression' && endsProcess(node) && !inTry(node, fn)) return true;
  return false;
}
