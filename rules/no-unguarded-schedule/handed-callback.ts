// A project wrapper around a timer or a cron job whose work is only the callback it was handed:
// `function every(ms, fn) { setInterval(fn, ms) }`, a `createJob(name, cron, task)` method building
// `new CronJob(cron, () => { task(); })`, a wrapper installed over the global `setInterval` that
// runs `callback(...args)` and drops the timer from its own table. The wrapper is a tool; the
// schedule worth judging is each call in the file that hands it real work — that call becomes the
// scheduled work, with the wrapper's scheduler and the period the call passes.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { isLogLine } from '../../analysis/scheduled-work/lease-gate.js';
import { couldBeWork, type ScheduledWork, type SchedulePeriod } from '../../analysis/scheduled-work/scheduled-work.js';
import { classMemberKeyName, isFunctionLike, resolveWorkFunction, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The wrapper whose parameter the work runs, and that parameter's position. */
export interface HandedCallback {
  wrapper: FunctionLike;
  /** -1 for a destructured or rest parameter. */
  index: number;
}

/** `fn` bound to a plain parameter of a function (not `inside` itself): that function and the position. */
function parameterOf(sourceCode: SourceCode, node: TSESTree.Node, inside?: FunctionLike): HandedCallback | undefined {
  if (node.type !== 'Identifier') return undefined;
  const variable = scopeVariable(sourceCode, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const owner = def?.node as TSESTree.Node | undefined;
  if (def?.type !== 'Parameter' || !isFunctionLike(owner) || owner === inside) return undefined;
  const id = def.name as TSESTree.Node;
  // Destructured or rest (`({ fn }) => …`, `(...fns) => …`): still the caller's work, at no position its calls are read at (-1).
  return { wrapper: owner, index: owner.params.findIndex((p) => p === id || (p.type === 'AssignmentPattern' && p.left === id)) };
}

/** The timer's handle, when the scheduler call is kept in a local (`const id = originalSetInterval(…)`). */
function handleName(call: TSESTree.Node): string | undefined {
  const parent = call.parent;
  return parent?.type === 'VariableDeclarator' && parent.init === call && parent.id.type === 'Identifier' ? parent.id.name : undefined;
}

/**
 * Statements that only run a parameter callback: `task();`, `await fn();`, `callback(...args);`,
 * `return fn()`, in a `try` whose other parts log; beside them, log lines and bookkeeping of the
 * timer's own handle (`timers.delete(id)`). The callback found goes in `found`.
 */
function onlyRunsCallback(
  sourceCode: SourceCode,
  statements: TSESTree.Statement[],
  fn: FunctionLike,
  handle: string | undefined,
  found: HandedCallback[],
): boolean {
  return statements.every((statement) => {
    if (statement.type === 'TryStatement')
      return [statement.block, statement.handler?.body, statement.finalizer].every(
        (block) => !block || onlyRunsCallback(sourceCode, block.body, fn, handle, found),
      );
    if (isLogLine(statement)) return true;
    const expression =
      statement.type === 'ExpressionStatement' ? statement.expression : statement.type === 'ReturnStatement' ? statement.argument : null;
    if (!expression) return false;
    let call = unwrapExpression(expression, { await: true });
    if (call.type === 'UnaryExpression' && call.operator === 'void') call = unwrapExpression(call.argument, { await: true });
    if (call.type !== 'CallExpression') return false;
    // `callback.call(this, …)`, `callback.apply(this, args)` run it too.
    const callee =
      call.callee.type === 'MemberExpression' && ['call', 'apply'].includes(memberPropertyName(call.callee) ?? '')
        ? call.callee.object
        : call.callee;
    const parameter = parameterOf(sourceCode, callee, fn);
    if (parameter) return found.push(parameter) > 0;
    return handle !== undefined && call.arguments.some((a) => a.type === 'Identifier' && a.name === handle);
  });
}

/** The work only runs a callback handed to a function around the schedule: the wrapper and the parameter's position. */
export function handedCallback(sourceCode: SourceCode, work: ScheduledWork): HandedCallback | undefined {
  const expression = work.expression;
  if (!expression) return undefined;
  const direct = parameterOf(sourceCode, expression);
  if (direct) return direct;
  const fn = unwrapExpression(expression);
  if (!isFunctionLike(fn) || work.resolved?.fn !== fn) return undefined;
  const found: HandedCallback[] = [];
  const body =
    fn.body.type === 'BlockStatement' ? fn.body.body : [{ type: 'ReturnStatement', argument: fn.body } as TSESTree.ReturnStatement];
  if (!onlyRunsCallback(sourceCode, body, fn, handleName(work.schedulerNode), found)) return undefined;
  const first = found[0];
  return first && found.every((f) => f.wrapper === first.wrapper && f.index === first.index) ? first : undefined;
}

/** The calls of the wrapper in this file: by its name, or `this.name(…)` in its class for a method. */
function callsOf(sourceCode: SourceCode, wrapper: FunctionLike): TSESTree.CallExpression[] {
  const parent = wrapper.parent;
  const named =
    wrapper.type === 'FunctionDeclaration' && wrapper.id
      ? sourceCode.getDeclaredVariables(wrapper).find((v) => v.name === wrapper.id!.name)
      : parent?.type === 'VariableDeclarator' && parent.init === wrapper && parent.id.type === 'Identifier'
        ? sourceCode.getDeclaredVariables(parent)[0]
        : undefined;
  if (named)
    return named.references.flatMap((r) => {
      const call = r.identifier.parent;
      return call?.type === 'CallExpression' && call.callee === r.identifier ? [call] : [];
    });
  const member = parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition' ? parent : undefined;
  const name = member && classMemberKeyName(member);
  if (!member || !name || member.parent.type !== 'ClassBody') return [];
  const calls: TSESTree.CallExpression[] = [];
  for (const node of descendants(member.parent, sourceCode.visitorKeys))
    if (
      node.type === 'CallExpression' &&
      node.callee.type === 'MemberExpression' &&
      node.callee.object.type === 'ThisExpression' &&
      memberPropertyName(node.callee) === name
    )
      calls.push(node);
  return calls;
}

/** The period the call passes, when the wrapper's schedule is one of its parameters (`setInterval(fn, ms)`). */
export function periodAt(
  sourceCode: SourceCode,
  wrapper: FunctionLike,
  work: ScheduledWork,
  call: TSESTree.CallExpression,
): SchedulePeriod {
  const period = work.period;
  // A cron expression handed in (`new CronJob(cronExp, …)`) is read by no scheduler: it comes first.
  const first = work.schedulerNode.arguments[0];
  const text =
    period?.kind === 'interval' || period?.kind === 'cron-reference'
      ? period.text
      : !period && work.workIndex !== 0 && first?.type === 'Identifier'
        ? first.name
        : undefined;
  const names = wrapper.params.map((p): string | undefined => (p.type === 'Identifier' ? p.name : undefined));
  const index = text === undefined ? -1 : names.indexOf(text);
  // Written in the wrapper without its parameters (`setInterval(fn, 60_000)`): the same for every call.
  const words: string[] = text?.match(/[\w$]+/g) ?? [];
  if (index < 0) return names.some((n) => n !== undefined && words.includes(n)) ? undefined : period;
  const value = call.arguments[index];
  if (!value || value.type === 'SpreadElement') return undefined;
  if (period?.kind === 'interval') return { kind: 'interval', text: sourceCode.getText(value) };
  return value.type === 'Literal' && typeof value.value === 'string' ? { kind: 'cron', expression: value.value } : undefined;
}

/** Each call of the wrapper in this file that hands it work, as a scheduled work of the wrapper's scheduler. */
function handedWorks(sourceCode: SourceCode, work: ScheduledWork, handed: HandedCallback): ScheduledWork[] {
  if (handed.index < 0) return [];
  return callsOf(sourceCode, handed.wrapper).flatMap((call): ScheduledWork[] => {
    const argument = call.arguments[handed.index];
    if (!argument || argument.type === 'SpreadElement' || !couldBeWork(argument)) return [];
    const resolved = resolveWorkFunction(sourceCode, argument);
    return [
      {
        entry: work.entry,
        schedulerNode: call,
        expression: argument,
        workIndex: handed.index,
        resolved,
        name: resolved?.name,
        period: periodAt(sourceCode, handed.wrapper, work, call),
        coordinatedByOption: false,
      },
    ];
  });
}

/**
 * Whether the work only runs a callback handed to its wrapper; then the wrapper's calls that hand it
 * work join `works` (once per wrapper: `seen`), to be judged in their turn — a call handing on a
 * parameter of its own leads to that function's calls.
 */
export function queueHandedWorks(sourceCode: SourceCode, work: ScheduledWork, works: ScheduledWork[], seen: Set<TSESTree.Node>): boolean {
  const handed = handedCallback(sourceCode, work);
  if (!handed) return false;
  if (!seen.has(handed.wrapper)) works.push(...handedWorks(sourceCode, work, handed));
  seen.add(handed.wrapper);
  return true;
}
