// An endless poll loop as a scheduled work function: `while (true) { …work…; await delay(ms); }` (or `while (1)`),
// `for (;;) { …; await sleep(n); }`, `while (!this.stopped) { …; await setTimeout(ms); }`. Every
// replica that starts it runs its body once per pause, exactly like a `setInterval`, so it becomes
// the same model (src/knowledge/schedulers.ts, POLL_LOOP): the loop body is the work, the pause
// is the period. A loop that can `break` or `return`, or whose local flag its body sets from what it
// read (loop-ended-by-data.ts), is a retry, a wait or a paged read, not a schedule.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { DURABLE_WORKFLOW_MODULES, POLL_LOOP_DELAY_NAMES } from '../../src/knowledge/schedulers.js';
import { POLL_LOOP_DURATION_WORDS, POLL_LOOP_PAUSE_WORDS, POLL_LOOP_WAITED_FOR_WORDS } from '../../src/knowledge/poll-pauses.js';
import { moduleSpecifiers } from '../imports/imported-references.js';
import { memberPropertyName } from '../ast/property-names.js';
import { nodeAt } from '../ast/node-at.js';
import { isFunctionLike } from './work-function.js';
import { enclosingFunction, functionNameOf } from '../sql/enclosing-function.js';
import { READ_METHODS } from '../../src/knowledge/sql.js';
import { IN_PROCESS_FUNCTIONS, IN_PROCESS_METHODS, IN_PROCESS_OBJECTS } from '../../src/knowledge/work-effects.js';
import { isExternalReceiver, resolveCallee } from './external-effects.js';
import { isAwaited } from '../ast/unwrapped-expression.js';
import { callsModelClass, isPerReplicaName } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';
import { endsOnData } from './loop-ended-by-data.js';
import { callHandedRow, loadsDueRows } from './due-rows-read.js';

export type PollLoop = TSESTree.WhileStatement | TSESTree.ForStatement;

/** `true`, `1`, no test, `running`, `this.running`, `!stopped`, `!signal.aborted`: a loop that only a flag ends. */
function isEndless(loop: PollLoop): boolean {
  const test = loop.test;
  if (!test) return loop.type === 'ForStatement';
  if (test.type === 'Literal') return test.value === true || test.value === 1;
  const flag = test.type === 'UnaryExpression' && test.operator === '!' ? test.argument : test;
  return flag.type === 'Identifier' || (flag.type === 'MemberExpression' && !flag.computed);
}

type Pause = { call: TSESTree.CallExpression | TSESTree.NewExpression; period?: TSESTree.Node };

/** `5_000`, `POLL_INTERVAL_MS`, `config.delaySeconds`, `intervalSec * 1000`: an argument that reads as a duration. */
function isDuration(node: TSESTree.Node | undefined): boolean {
  if (node?.type === 'Literal') return typeof node.value === 'number';
  if (node?.type === 'BinaryExpression')
    return (node.operator === '*' || node.operator === '+') && (isDuration(node.left) || isDuration(node.right));
  const name = node?.type === 'Identifier' ? node.name : node?.type === 'MemberExpression' ? memberPropertyName(node) : undefined;
  return name !== undefined && nameWords(name).some((w) => POLL_LOOP_DURATION_WORDS.includes(w));
}

/** `snooze(POLL_MS)`, `waitSeconds(5)`: a pause of another name, given a duration (POLL_LOOP_PAUSE_WORDS). */
function isNamedPause(name: string, argument: TSESTree.Node | undefined): boolean {
  const words = nameWords(name);
  return (
    words.some((w) => POLL_LOOP_PAUSE_WORDS.includes(w)) &&
    !words.some((w) => POLL_LOOP_WAITED_FOR_WORDS.includes(w)) &&
    isDuration(argument)
  );
}

/** A pause as an expression: `delay(ms)`, `sleep(n)`, `new Promise((r) => setTimeout(r, ms))`. */
function pauseExpression(expression: TSESTree.Node | null | undefined): Pause | undefined {
  if (expression?.type === 'CallExpression') {
    const name = expression.callee.type === 'Identifier' ? expression.callee.name : memberPropertyName(expression.callee);
    const ms = expression.arguments[0];
    return name !== undefined && (POLL_LOOP_DELAY_NAMES.includes(name) || isNamedPause(name, ms))
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

/**
 * `if (!this.loop) break;`, `if (this.stopped) break;`: a stop flag of the instance, set by its
 * `stop()`, checked after each pause — the same loop as `while (this.loop)`, not a bounded one.
 */
function isStopFlagCheck(node: TSESTree.Node): boolean {
  if (node.type !== 'IfStatement' || node.alternate) return false;
  const exit = node.consequent.type === 'BlockStatement' && node.consequent.body.length === 1 ? node.consequent.body[0]! : node.consequent;
  if (exit.type !== 'BreakStatement' || exit.label) return false;
  const flag = node.test.type === 'UnaryExpression' && node.test.operator === '!' ? node.test.argument : node.test;
  return flag.type === 'MemberExpression' && !flag.computed && flag.object.type === 'ThisExpression';
}

/** A `break` or `return` that leaves this loop (not one of a nested loop, switch or function). */
function canLeave(body: TSESTree.Node, visitorKeys: SourceCode['visitorKeys']): boolean {
  const visit = (node: TSESTree.Node, nested: boolean): boolean => {
    if (isFunctionLike(node) || (!nested && isStopFlagCheck(node))) return false;
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
    if (!pause || canLeave(node.body, sourceCode.visitorKeys) || endsOnData(node, sourceCode)) continue;
    out.push({ loop: node, name: functionNameOf(enclosingFunction(node)), body: node.body, pause: pause.call, period: pause.period });
  }
  return out;
}

type Variable = ReturnType<SourceCode['getDeclaredVariables']>[number];

/** `await prisma.feed.findMany(…)`, a model class's `await User.find()`: rows read from a shared store. */
function isSharedRead(node: TSESTree.Node | null | undefined): boolean {
  const read = node?.type === 'AwaitExpression' ? node.argument : undefined;
  return (
    read?.type === 'CallExpression' &&
    read.callee.type === 'MemberExpression' &&
    ((READ_METHODS.has(memberPropertyName(read.callee) ?? '') && (isExternalReceiver(read.callee.object) || callsModelClass(read))) ||
      loadsDueRows(read))
  );
}

/** `const rows = await prisma.feed.findMany(…)`: the variable holding rows read from a shared store. */
function readRows(sourceCode: SourceCode, statement: TSESTree.Statement): Variable[] {
  if (statement.type !== 'VariableDeclaration') return [];
  return statement.declarations.flatMap((d) =>
    d.id.type === 'Identifier' && isSharedRead(d.init) ? sourceCode.getDeclaredVariables(d) : [],
  );
}

/** `for (const feed of await prisma.feed.findMany())`: the variable of one row read from a shared store. */
function readRow(sourceCode: SourceCode, statement: TSESTree.Statement): readonly Variable[] {
  if (statement.type !== 'ForOfStatement' || statement.left.type !== 'VariableDeclaration' || !isSharedRead(statement.right)) return [];
  return sourceCode.getDeclaredVariables(statement.left);
}

/** The variable of one row: `for (const row of rows)`, `rows.map((row) => …)`, `rows.forEach(async (row) => …)`. */
function rowVariable(sourceCode: SourceCode, rows: TSESTree.Node): Variable | undefined {
  const parent = rows.parent;
  if (parent?.type === 'ForOfStatement' && parent.right === rows && parent.left.type === 'VariableDeclaration')
    return sourceCode.getDeclaredVariables(parent.left)[0];
  const call = parent?.parent;
  const each =
    parent?.type === 'MemberExpression' &&
    parent.object === rows &&
    ['map', 'forEach', 'flatMap'].includes(memberPropertyName(parent) ?? '');
  const callback = each && call?.type === 'CallExpression' ? call.arguments[0] : undefined;
  const param = isFunctionLike(callback) ? callback.params[0] : undefined;
  return param?.type === 'Identifier'
    ? sourceCode.getDeclaredVariables(callback as TSESTree.Node).find((v) => v.name === param.name)
    : undefined;
}

/** `await rssHandler(row, feed)`, `await settle(row.id)`: the row handed to an awaited function this file does not hold, which may leave the process. */
function handsRowOn(sourceCode: SourceCode, row: TSESTree.Node): boolean {
  const call = callHandedRow(row);
  if (!call || !isAwaited(call)) return false;
  const callee = call.callee;
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  if (name === undefined || isPerReplicaName(name) || resolveCallee(sourceCode, call)) return false;
  if (callee.type === 'Identifier') return !IN_PROCESS_FUNCTIONS.has(callee.name);
  const receiver = callee.type === 'MemberExpression' ? callee.object : undefined;
  return !IN_PROCESS_METHODS.has(name) && !(receiver?.type === 'Identifier' && IN_PROCESS_OBJECTS.has(receiver.name));
}

/**
 * A poll loop that reads rows from a shared store and hands each row to a function of another
 * module (`const feeds = await prisma.feed.findMany(…); for (const feed of feeds) await poll(feed);`):
 * business work on shared rows, judged as a declared job even when that function cannot be read.
 * Filling this process's cache from the rows (`cache.set(row.id, row)`) or logging them is not.
 */
export function handsReadRowsOn(sourceCode: SourceCode, body: TSESTree.BlockStatement): boolean {
  // Through a `try` and the branches of an `if` (`if (!business) log(…); else { const users = …; … }`).
  const flat = (s: TSESTree.Statement | null | undefined): TSESTree.Statement[] =>
    !s
      ? []
      : s.type === 'TryStatement'
        ? s.block.body.flatMap(flat)
        : s.type === 'IfStatement'
          ? [s, ...flat(s.consequent), ...flat(s.alternate)]
          : s.type === 'BlockStatement'
            ? s.body.flatMap(flat)
            : [s];
  const statements = body.body.flatMap(flat);
  const handsOn = (row: Variable | undefined) => row?.references.some((use) => handsRowOn(sourceCode, use.identifier)) === true;
  return statements.some(
    (s) =>
      readRow(sourceCode, s).some(handsOn) ||
      readRows(sourceCode, s).some((rows) => rows.references.some((r) => handsOn(rowVariable(sourceCode, r.identifier)))),
  );
}
