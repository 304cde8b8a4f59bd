// A one-shot timer set when the service starts, minutes out: `setTimeout(async () => { await
// rebalanceTiers(); }, 1000 * 60 * 5)` (its handle maybe kept, `kickoff = setTimeout(…)`) as a statement of the module or of a top-level function that
// sets the service's timers up (`export default function initTierTask() { setTimeout(…); setInterval(…); }`).
// Every replica starts, so every replica runs that work once more, minutes after each start: a
// schedule like the interval beside it, judged by its work as a bare timer is. A short delay
// (a tick to let the process settle, `setTimeout(run, 0)`), a timer inside a loop, a callback or
// a handler (one per event, not per start: a top-level function handed parameters and not named for
// start-up, `onUpload(req, res)`) and a delay not written out as a number are not one.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { functionNameOf } from '../../analysis/sql/enclosing-function.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { DELAYED_START_MIN_MS, START_UP_FUNCTION_WORDS } from '../../src/knowledge/deferred-start.js';
/** How many constants a delay may pass through (`const FIRST_RUN = 5 * MINUTE`). */
const MAX_HOPS = 3;

/** The number a delay written out holds: literals, `*`, `+`, `-`, and `const`s of the file holding such. */
function constantNumber(sourceCode: SourceCode, node: TSESTree.Node, hops = 0): number | undefined {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'number' ? node.value : undefined;
    case 'BinaryExpression': {
      if (node.left.type === 'PrivateIdentifier') return undefined;
      const left = constantNumber(sourceCode, node.left, hops);
      const right = left === undefined ? undefined : constantNumber(sourceCode, node.right, hops);
      if (left === undefined || right === undefined) return undefined;
      if (node.operator === '*') return left * right;
      if (node.operator === '+') return left + right;
      if (node.operator === '-') return left - right;
      return undefined;
    }
    case 'Identifier': {
      if (hops >= MAX_HOPS) return undefined;
      const def = scopeVariable(sourceCode, node)?.defs[0];
      const declarator = def?.type === 'Variable' ? (def.node as TSESTree.Node) : undefined;
      if (declarator?.type !== 'VariableDeclarator' || declarator.parent?.type !== 'VariableDeclaration') return undefined;
      if (declarator.parent.kind !== 'const' || !declarator.init) return undefined;
      return constantNumber(sourceCode, declarator.init, hops + 1);
    }
    default:
      return undefined;
  }
}

/** A statement of the module (maybe under a top-level `if`), or of a top-level function's body. */
function runsAtStart(call: TSESTree.CallExpression): boolean {
  // `kickoffTimer = setTimeout(…)`: the handle kept so that shutdown can clear it, still a statement of its own.
  const kept = call.parent?.type === 'AssignmentExpression' && call.parent.right === call ? call.parent : call;
  if (kept.parent?.type !== 'ExpressionStatement') return false;
  let holder: TSESTree.Node | undefined = kept.parent.parent;
  // `if (isApi()) setTimeout(…)`, `if (enabled) { setTimeout(…) }` at the top of the module or of the function.
  for (let depth = 0; depth < 2; depth++) {
    if (holder?.type === 'BlockStatement' && holder.parent?.type === 'IfStatement') holder = holder.parent.parent;
    else if (holder?.type === 'IfStatement') holder = holder.parent;
    else break;
  }
  if (holder?.type === 'Program') return true;
  const fn = holder?.type === 'BlockStatement' ? holder.parent : undefined;
  if (fn?.type !== 'FunctionDeclaration' && fn?.type !== 'FunctionExpression' && fn?.type !== 'ArrowFunctionExpression') return false;
  // Declared at the top of the module: `function init() {…}`, `export default function …`, `export const start = () => {…}`.
  const outer =
    fn.type === 'FunctionDeclaration' ? fn.parent : fn.parent?.type === 'VariableDeclarator' ? fn.parent.parent?.parent : fn.parent;
  if (outer?.type !== 'Program' && outer?.type !== 'ExportNamedDeclaration' && outer?.type !== 'ExportDefaultDeclaration') return false;
  // Handed nothing, or named for setting the service up (`startJobs(app)`): not a handler of one request (`onUpload(req, res)`).
  const name = functionNameOf(fn);
  return fn.params.length === 0 || (name !== undefined && START_UP_FUNCTION_WORDS.includes(nameWords(name)[0] ?? ''));
}

/** Whether `call` (a `setTimeout`) is a one-shot run of its work minutes after the service starts. */
export function isDelayedStartRun(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const delay = call.arguments[1];
  if (!delay || delay.type === 'SpreadElement' || !runsAtStart(call)) return false;
  const ms = constantNumber(sourceCode, delay);
  return ms !== undefined && ms >= DELAYED_START_MIN_MS;
}
