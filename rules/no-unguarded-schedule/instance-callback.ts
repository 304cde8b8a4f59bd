// Whether a timer only runs a callback its instance was built with: a timer utility
// (`class SoonestTimer { constructor(private cb) {} … setTimeout(() => this.cb(), ms) }`,
// `constructor(run) { this.run = run; } … setInterval(this.run, ms)`) is a tool, like a wrapper
// forwarding a parameter; the work is whatever the code that builds it hands in. The callback may
// come in an options object (`constructor(opts) { this.onTick = opts.onInterval; }`), and the timer
// may run a method of the utility's own that calls it amid bookkeeping (a running flag, the next
// timer armed in a `finally`, an error handler also handed in, log lines).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { classMember, isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { LOG_METHODS } from '../../src/knowledge/work-effects.js';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';

/** The member's name as written: `cb` of `this.cb`, `#cb` of `this.#cb`. */
const memberName = (node: TSESTree.MemberExpression): string | undefined =>
  node.property.type === 'PrivateIdentifier' ? `#${node.property.name}` : memberPropertyName(node);

/** `this.cb`, `this.cb.bind(this)`, `() => this.cb()`, `async () => { await this.cb(); }`: the field the timer runs. */
function fieldRun(expression: TSESTree.Node): string | undefined {
  let node = unwrapExpression(expression);
  if (isFunctionLike(node)) {
    let body: TSESTree.Node | null | undefined = node.body;
    if (body.type === 'BlockStatement') {
      const only = body.body.length === 1 ? body.body[0] : undefined;
      body = only?.type === 'ExpressionStatement' ? only.expression : only?.type === 'ReturnStatement' ? only.argument : undefined;
    }
    if (!body) return undefined;
    let call = unwrapExpression(body, { await: true });
    if (call.type === 'UnaryExpression' && call.operator === 'void') call = unwrapExpression(call.argument, { await: true });
    if (call.type !== 'CallExpression') return undefined;
    node = unwrapExpression(call.callee);
  } else if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && memberPropertyName(node.callee) === 'bind') {
    node = unwrapExpression(node.callee.object);
  }
  return node.type === 'MemberExpression' && node.object.type === 'ThisExpression' ? memberName(node) : undefined;
}

/**
 * The position of the constructor's parameter the class keeps as `name`: a parameter property, or
 * `this.name` assigned a parameter (`this.run = run`), a member of one (`this.onTick = opts.onInterval`),
 * or a destructured one (`constructor({ onInterval }) { this.onTick = onInterval; }`); -1 for a
 * destructured one, undefined when the constructor takes no such parameter.
 */
export function constructorParameterIndex(classBody: TSESTree.ClassBody, name: string): number | undefined {
  const constructor = classBody.body.find((m) => m.type === 'MethodDefinition' && m.kind === 'constructor');
  if (constructor?.type !== 'MethodDefinition') return undefined;
  const params = constructor.value.params;
  const parameterPositions = new Map<string, number>();
  params.forEach((param, index) => {
    const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
    const id = inner.type === 'AssignmentPattern' ? inner.left : inner;
    if (id.type === 'ObjectPattern')
      for (const property of id.properties) {
        const value = property.type === 'Property' ? property.value : undefined;
        const bound = value?.type === 'AssignmentPattern' ? value.left : value;
        if (bound?.type === 'Identifier') parameterPositions.set(bound.name, -1);
      }
    if (id.type !== 'Identifier') return;
    if (param.type === 'TSParameterProperty' && id.name === name) parameterPositions.set(`this.${name}`, index);
    parameterPositions.set(id.name, index);
  });
  const own = parameterPositions.get(`this.${name}`);
  if (own !== undefined) return own;
  for (const statement of constructor.value.body?.body ?? []) {
    const e = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    if (e?.type !== 'AssignmentExpression' || e.left.type !== 'MemberExpression' || e.left.object.type !== 'ThisExpression') continue;
    if (memberName(e.left) !== name) continue;
    const right = unwrapExpression(e.right);
    const root = right.type === 'MemberExpression' && !right.computed ? unwrapExpression(right.object) : right;
    if (root.type !== 'Identifier' || !parameterPositions.has(root.name)) continue;
    return root === right ? parameterPositions.get(root.name) : -1;
  }
  return undefined;
}

const constructorTakes = (classBody: TSESTree.ClassBody, name: string): boolean => constructorParameterIndex(classBody, name) !== undefined;

/** How many of the utility's own methods deep the bookkeeping is read (`#doInterval` → `#scheduleNext`). */
const OWN_METHOD_DEPTH = 2;

/**
 * Whether every call in `fn` is bookkeeping of a timer utility — a log line, a timer set or
 * cleared, a method of its own class doing the same — or a run of a callback the constructor took;
 * `ran` counts those runs.
 */
function onlyRunsTakenCallbacks(
  classBody: TSESTree.ClassBody,
  fn: FunctionLike,
  keys: TSESLint.SourceCode.VisitorKeys,
  ran: { count: number },
  seen: Set<FunctionLike>,
): boolean {
  if (seen.has(fn) || seen.size > OWN_METHOD_DEPTH) return false;
  seen.add(fn);
  for (const node of descendants(fn.body, keys, isFunctionLike)) {
    if (isFunctionLike(node)) return false;
    if (node.type !== 'CallExpression') continue;
    const callee = unwrapExpression(node.callee);
    if (callee.type === 'Identifier') {
      if (callee.name === 'setTimeout' || callee.name === 'setInterval' || TIMER_LIFETIME.clearers.includes(callee.name as never)) continue;
      return false;
    }
    if (callee.type !== 'MemberExpression') return false;
    const method = memberName(callee);
    if (method === undefined) return false;
    if (callee.object.type !== 'ThisExpression') {
      // `console.error(…)`, `this.logger.warn(…)`: a log line.
      if (LOG_METHODS.includes(method)) continue;
      return false;
    }
    if (constructorTakes(classBody, method)) {
      ran.count++;
      continue;
    }
    const own = classMember(callee, method)?.fn;
    if (!own || !onlyRunsTakenCallbacks(classBody, own, keys, ran, seen)) return false;
  }
  return true;
}

/**
 * Whether the timer's work (`expression`, where it is handed over) only runs a callback the instance
 * was built with: the field itself, or `work` (the resolved work function, a method of the class)
 * running it amid bookkeeping.
 */
export function runsInstanceCallback(
  expression: TSESTree.Node | undefined,
  work?: FunctionLike,
  keys?: TSESLint.SourceCode.VisitorKeys,
): boolean {
  const name = expression ? fieldRun(expression) : undefined;
  if (name === undefined) return false;
  let classBody: TSESTree.ClassBody | undefined;
  for (let node = expression!.parent; node && !classBody; node = node.parent) if (node.type === 'ClassBody') classBody = node;
  if (!classBody) return false;
  if (constructorTakes(classBody, name)) return true;
  if (!work || !keys || !classBody.body.some((m) => m === work.parent)) return false;
  const ran = { count: 0 };
  return onlyRunsTakenCallbacks(classBody, work, keys, ran, new Set()) && ran.count > 0;
}
