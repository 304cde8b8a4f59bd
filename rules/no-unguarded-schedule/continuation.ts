// Whether a self-rescheduling `setTimeout` continues ONE run of a task rather than starting a
// period: a retry of the step that failed (set in an error path, or bounded by an attempt
// counter), the next page or item of one request or task (the loop ends by calling back the run
// it belongs to), or a step inside a run that already holds a lock. Such a timer repeats nothing
// across replicas: the run it continues was started once, where it was started. A loop started at
// boot that reschedules itself on its success path, never ends and takes no lock is a schedule.
// A reschedule on the success path of the same function is a separate timer, judged on its own.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { exits } from '../../analysis/scheduled-work/exit-tests.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { callIntent } from '../../analysis/scheduled-work/work-intent.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { flushesPendingChange } from './pending-flush.js';
import { pagesOn } from './next-page.js';

type Variable = ReturnType<SourceCode['getDeclaredVariables']>[number];

const NO_TELEMETRY: ReadonlySet<string> = new Set();

const contains = (outer: TSESTree.Node, inner: TSESTree.Node): boolean =>
  inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];

/** Where the walk up from the timer stops: the work, or (a timer set outside its work) the function around the work. */
const stopsAt = (node: TSESTree.Node, work: FunctionLike): boolean => node === work || (isFunctionLike(node) && contains(node, work));

/** The function `node` sits in. */
function enclosingFunction(node: TSESTree.Node): FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/** `promise.catch(fn)`, `stream.once('error', fn)`: `fn` runs when something failed. */
function isErrorHandler(fn: FunctionLike): boolean {
  const call = fn.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
  const name = memberPropertyName(call.callee);
  if (name === 'catch') return true;
  const event = call.arguments[0];
  return (
    name !== undefined &&
    (TIMER_LIFETIME.listenerMethods as readonly string[]).includes(name) &&
    event?.type === 'Literal' &&
    event.value === 'error'
  );
}

/** `if (err) return setTimeout(retry, ms);` with `err` the first parameter of the callback it sits in (a Node error-first callback). */
function inErrorBranch(node: TSESTree.Node, fn: FunctionLike): boolean {
  const first = fn.params[0];
  if (first?.type !== 'Identifier') return false;
  for (let child: TSESTree.Node = node, parent = node.parent; parent && parent !== fn; child = parent, parent = parent.parent)
    if (
      parent.type === 'IfStatement' &&
      parent.consequent === child &&
      parent.test.type === 'Identifier' &&
      parent.test.name === first.name
    )
      return true;
  return false;
}

/** Set in a `catch`, a `.catch(…)` or `'error'` listener, or the error branch of an error-first callback, up to `work`. */
function inErrorPath(schedule: TSESTree.Node, work: FunctionLike): boolean {
  let child: TSESTree.Node = schedule;
  for (let parent = schedule.parent; parent && !stopsAt(parent, work); child = parent, parent = parent.parent) {
    if (parent.type === 'CatchClause' && parent.body === child) return true;
    if (isFunctionLike(parent) && (isErrorHandler(parent) || inErrorBranch(schedule, parent))) return true;
  }
  return false;
}

const sideName = (side: TSESTree.Node): string | undefined =>
  side.type === 'Identifier' ? side.name : side.type === 'MemberExpression' ? memberPropertyName(side) : undefined;

/** `count < maxCount`, `tries >= MAX_TRIES`: a counter compared with its own maximum (the bound's name is the counter's, after `max`). */
function underItsMaximum(counter: string | undefined, bound: string | undefined): boolean {
  if (counter === undefined || bound === undefined) return false;
  const [first, ...rest] = nameWords(bound);
  const words = nameWords(counter);
  return first === TIMER_LIFETIME.maximumWord && rest.length === words.length && rest.every((w, i) => w === words[i]);
}

/** `tryCount++ < 5`, `attempt >= maxAttempts`, `count < maxCount`: a comparison of an attempt counter. */
function comparesAttempts(test: TSESTree.Node, sourceCode: SourceCode): boolean {
  for (const node of [test, ...descendants(test, sourceCode.visitorKeys)]) {
    if (node.type !== 'BinaryExpression' || !['<', '<=', '>', '>='].includes(node.operator)) continue;
    const counted = (side: TSESTree.Node): boolean => {
      if (side.type === 'UpdateExpression') return true;
      const name = sideName(side);
      return name !== undefined && nameWords(name).some((w) => (TIMER_LIFETIME.attemptWords as readonly string[]).includes(w));
    };
    if (counted(node.left) || counted(node.right)) return true;
    const [left, right] = [sideName(node.left), sideName(node.right)];
    if (underItsMaximum(left, right) || underItsMaximum(right, left)) return true;
  }
  return false;
}

/**
 * A bounded retry: a test on the way from the work to the timer compares an attempt counter
 * (`if (tryCount++ < 5) setTimeout(tryStore, 10)`), or the work leaves first once the attempts
 * are used up (`if (attemptCount >= 5) { reject(…); return; }`).
 */
function boundedByAttempts(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  for (let parent = schedule.parent; parent && !stopsAt(parent, work); parent = parent.parent)
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && comparesAttempts(parent.test, sourceCode))
      return true;
  const body = work.body.type === 'BlockStatement' ? work.body.body : [];
  return body.some((s) => s.type === 'IfStatement' && exits(s.consequent) && comparesAttempts(s.test, sourceCode));
}

/** A parameter of a function around `work` (not of `work` itself): the run's completion callback. */
function isOuterParameter(variable: Variable, work: FunctionLike): boolean {
  const def = variable.defs[0];
  if (def?.type !== 'Parameter') return false;
  const owner = def.node as TSESTree.Node;
  return isFunctionLike(owner) && owner !== work && contains(owner, work);
}

/** `callback(null, true)`, `done()`: a call reporting success (no error first). */
function reportsSuccess(call: TSESTree.CallExpression): boolean {
  const first = call.arguments[0];
  return (
    first === undefined || (first.type === 'Literal' && first.value === null) || (first.type === 'Identifier' && first.name === 'undefined')
  );
}

/** A local closure (`done`) whose body calls a completion callback of the run around `work` (`callback(…args)`). */
function closureCallsParameter(sourceCode: SourceCode, closure: FunctionLike, work: FunctionLike): boolean {
  // The closure's own parameters are not the run's: ask about those of functions around the work.
  for (const node of [closure.body, ...descendants(closure.body, sourceCode.visitorKeys)]) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') continue;
    const variable = scopeVariable(sourceCode, node.callee);
    if (variable && isOuterParameter(variable, work)) return true;
  }
  return false;
}

/** Calls in the work of an identifier that is a completion callback of the run around `work`, directly or through one local closure (`done` calling `callback`). */
function callsCompletion(sourceCode: SourceCode, work: FunctionLike): boolean {
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || !reportsSuccess(node)) continue;
    const variable = scopeVariable(sourceCode, node.callee);
    if (!variable) continue;
    if (isOuterParameter(variable, work)) return true;
    const def = variable.defs[0];
    const init =
      def?.type === 'Variable' ? (def.node as TSESTree.VariableDeclarator).init : def?.type === 'FunctionName' ? def.node : undefined;
    const closure = init && isFunctionLike(init) ? init : undefined;
    // A closure declared around the work (not inside it) that calls the run's callback.
    if (closure && !contains(work, closure) && closureCallsParameter(sourceCode, closure, work)) return true;
  }
  return false;
}

/** The work sits inside the callback of a call that takes a lock (`gcLock.acquireLock(name, ttl, (err, lock) => { … })`). */
function insideLockedRun(work: FunctionLike): boolean {
  for (let fn = enclosingFunction(work); fn; fn = enclosingFunction(fn)) {
    const call = fn.parent;
    if (
      call?.type === 'CallExpression' &&
      call.arguments.includes(fn as TSESTree.CallExpressionArgument) &&
      callIntent(call, NO_TELEMETRY) === 'coordinated'
    )
      return true;
  }
  return false;
}

/**
 * Whether the self-rescheduling timer at `schedule`, rerunning `work`, continues one run of a
 * task: a retry in an error path or bounded by attempts, a page or item loop that ends by calling
 * back the request or task it serves, a step of a run that holds a lock, the flush of one pending change,
 * or the next page of the run of the function it sits in (next-page.ts).
 */
export function continuesOneRun(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  return (
    inErrorPath(schedule, work) ||
    boundedByAttempts(sourceCode, schedule, work) ||
    callsCompletion(sourceCode, work) ||
    insideLockedRun(work) ||
    flushesPendingChange(sourceCode, schedule, work) ||
    pagesOn(sourceCode, schedule, work)
  );
}
