// An endless poll loop as a scheduled work function: `while (true) { …work…; await delay(ms); }`,
// `for (;;) { …; await sleep(n); }`, `while (!this.stopped) { …; await setTimeout(ms); }`. Every
// replica that starts it runs its body once per pause, exactly like a `setInterval`, so it becomes
// the same model (src/knowledge/schedulers.ts, POLL_LOOP): the loop body is the work, the pause
// is the period. A loop that can `break` or `return` is a retry, a wait or a paged read, not a
// schedule.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { DURABLE_WORKFLOW_MODULES, POLL_LOOP_DELAY_NAMES } from '../../src/knowledge/schedulers.js';
import { moduleSpecifiers } from '../imports/imported-references.js';
import { memberPropertyName } from '../ast/property-names.js';
import { nodeAt } from '../ast/node-at.js';
import { isFunctionLike } from './work-function.js';
import { enclosingFunction, functionNameOf } from '../sql/enclosing-function.js';

export type PollLoop = TSESTree.WhileStatement | TSESTree.ForStatement;

/** `true`, no test, `running`, `this.running`, `!stopped`, `!signal.aborted`: a loop that only a flag ends. */
function isEndless(loop: PollLoop): boolean {
  const test = loop.test;
  if (!test) return loop.type === 'ForStatement';
  if (test.type === 'Literal') return test.value === true;
  const flag = test.type === 'UnaryExpression' && test.operator === '!' ? test.argument : test;
  return flag.type === 'Identifier' || (flag.type === 'MemberExpression' && !flag.computed);
}

type Pause = { call: TSESTree.CallExpression | TSESTree.NewExpression; period?: TSESTree.Node };

/** A pause as an expression: `delay(ms)`, `sleep(n)`, `new Promise((r) => setTimeout(r, ms))`. */
function pauseExpression(expression: TSESTree.Node | null | undefined): Pause | undefined {
  if (expression?.type === 'CallExpression') {
    const name = expression.callee.type === 'Identifier' ? expression.callee.name : memberPropertyName(expression.callee);
    const ms = expression.arguments[0];
    return name !== undefined && POLL_LOOP_DELAY_NAMES.includes(name)
      ? { call: expression, ...(ms && ms.type !== 'SpreadElement' ? { period: ms } : {}) }
      : undefined;
  }
  if (expression?.type !== 'NewExpression' || expression.callee.type !== 'Identifier' || expression.callee.name !== 'Promise')
    return undefined;
  const executor = expression.arguments[0];
  if (!isFunctionLike(executor)) return undefined;
  const inner = executor.body.type === 'BlockStatement' ? executor.body.body[0] : executor.body;
  const timer = inner?.type === 'ExpressionStatement' ? inner.expression : inner;
  if (timer?.type !== 'CallExpression' || timer.callee.type !== 'Identifier' || timer.callee.name !== 'setTimeout') return undefined;
  const ms = timer.arguments[1];
  return { call: expression, ...(ms && ms.type !== 'SpreadElement' ? { period: ms } : {}) };
}

/**
 * The pause among a block's statements: `await delay(ms)`, `await new Promise(…)`, or a pause kept
 * in a `const` of the same block and awaited there (`const next = new Promise(…); await next;`).
 */
function pauseIn(statements: readonly TSESTree.Statement[]): Pause | undefined {
  const stored = new Map<string, Pause>();
  for (const statement of statements) {
    if (statement.type === 'VariableDeclaration' && statement.kind === 'const') {
      for (const d of statement.declarations) {
        const pause = d.id.type === 'Identifier' ? pauseExpression(d.init) : undefined;
        if (pause && d.id.type === 'Identifier') stored.set(d.id.name, pause);
      }
      continue;
    }
    const awaited =
      statement.type === 'ExpressionStatement' && statement.expression.type === 'AwaitExpression'
        ? statement.expression.argument
        : undefined;
    const pause = awaited?.type === 'Identifier' ? stored.get(awaited.name) : pauseExpression(awaited);
    if (pause) return pause;
  }
  return undefined;
}

/**
 * The blocks whose pause paces the loop: its body's top-level statements (with a top-level `try`'s
 * block and `finally`), and the branches of a top-level `if` — the idle back-off of a loop that
 * pauses only when a round found nothing to do (`if (!fired) { await sleep(ms); }`).
 */
function pauseBlocks(body: TSESTree.BlockStatement): TSESTree.Statement[][] {
  const top = body.body.flatMap((s) => (s.type === 'TryStatement' ? [s, ...s.block.body, ...(s.finalizer?.body ?? [])] : [s]));
  const branches = top.flatMap((s) =>
    s.type === 'IfStatement' ? [s.consequent, s.alternate].flatMap((b) => (!b ? [] : b.type === 'BlockStatement' ? [b.body] : [[b]])) : [],
  );
  return [top, ...branches];
}

/** A `break` or `return` that leaves this loop (not one of a nested loop, switch or function). */
function canLeave(body: TSESTree.Node, visitorKeys: SourceCode['visitorKeys']): boolean {
  const visit = (node: TSESTree.Node, nested: boolean): boolean => {
    if (isFunctionLike(node)) return false;
    if (node.type === 'ReturnStatement') return true;
    if (node.type === 'BreakStatement' && (node.label !== null || !nested)) return true;
    const inner =
      nested ||
      node.type === 'WhileStatement' ||
      node.type === 'DoWhileStatement' ||
      node.type === 'ForStatement' ||
      node.type === 'ForInStatement' ||
      node.type === 'ForOfStatement' ||
      node.type === 'SwitchStatement';
    for (const key of (visitorKeys as Record<string, readonly string[] | undefined>)[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child])
        if (item && typeof (item as TSESTree.Node).type === 'string' && visit(item as TSESTree.Node, inner)) return true;
    }
    return false;
  };
  return visit(body, false);
}

export interface PollLoopWork {
  loop: PollLoop;
  /** The function that runs the loop, by its name (`startPolling`), for the job name. */
  name: string | undefined;
  body: TSESTree.BlockStatement;
  pause: TSESTree.CallExpression | TSESTree.NewExpression;
  period: TSESTree.Node | undefined;
}

/** The head of an endless loop as written (`while (true)`, `while (!this.stopped)`, `for (;;)`): few places to look up. */
export const ENDLESS_LOOP_HEAD = /\bwhile\s*\(\s*(?:true|!?\s*[\w$.#]+)\s*\)|\bfor\s*\(\s*;\s*;\s*\)/;
const ENDLESS_HEAD = new RegExp(ENDLESS_LOOP_HEAD.source, 'g');

/** Every endless poll loop of the file, in source order. */
export function pollLoops(sourceCode: SourceCode): PollLoopWork[] {
  const out: PollLoopWork[] = [];
  // Durable workflow code: the engine runs the loop once per workflow, not once per replica.
  const modules = moduleSpecifiers(sourceCode.ast as TSESTree.Program);
  if (DURABLE_WORKFLOW_MODULES.some((module) => modules.has(module))) return out;
  for (const match of sourceCode.text.matchAll(ENDLESS_HEAD)) {
    const node = nodeAt(sourceCode, match.index);
    if ((node?.type !== 'WhileStatement' && node?.type !== 'ForStatement') || node.range[0] !== match.index) continue;
    if (node.type === 'ForStatement' && (node.init || node.update)) continue;
    if (node.body.type !== 'BlockStatement' || !isEndless(node)) continue;
    const pause = pauseBlocks(node.body)
      .map(pauseIn)
      .find((p) => p !== undefined);
    if (!pause || canLeave(node.body, sourceCode.visitorKeys)) continue;
    out.push({ loop: node, name: functionNameOf(enclosingFunction(node)), body: node.body, pause: pause.call, period: pause.period });
  }
  return out;
}
