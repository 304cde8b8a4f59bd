// Which failure handling of a migrate entrypoint is about the migration run:
// - a catch clause counts when its `try` holds a call on the migration path: a migrator run, a
//   call named for a run, a call that sends schema DDL (`client.query('ALTER TABLE …')`), or a call
//   of a function of this file that makes one (`main` calling `runMigration`). A catch beside the
//   run — a helper's (`try { await access(dir); return true } catch { return false }`), or a
//   best-effort step in the same function (`try { await notify() } catch {}`) — handles its own
//   question;
// - a `.catch(…)` / `.then(ok, fail)` counts when the promise it handles comes from a call on the
//   path (`main().catch(log)`, `migrate(db).catch(log)`), or from a link whose handler returns one
//   (`connect().then(() => migrate(db)).catch(log)`, handed-on-runs.ts);
// - with no call on the path in view nothing counts: which handler is the run's cannot be told,
//   and a long data-copy script holds dozens of helpers that catch their own errors.
import type { TSESTree } from '@typescript-eslint/utils';
import { isMigratorVerbCall } from '../migrations/migrator-verb-calls.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import type { DetectContext } from '../utils/create-rule.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isProcessGlobal } from '../../analysis/ast/process-env.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { SCHEMA_DDL, mayNameMigrationRun, namesMigrationRunner } from '../../src/knowledge/migrators.js';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { migratorRuns } from '../migrations/self-locking.js';
import { exitsNonZero } from '../migrations/exit-paths.js';
import { runsInHandedOnLink } from './handed-on-runs.js';
import { loopedFileRuns } from './looped-file-runs.js';
import { nodeContains as contains } from '../../analysis/ast/node-contains.js';

type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

const isFunction = (node: TSESTree.Node): node is FunctionNode =>
  node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';

/** The functions around a node, innermost first. */
function enclosingFunctions(node: TSESTree.Node): FunctionNode[] {
  const out: FunctionNode[] = [];
  for (let current = node.parent; current; current = current.parent) if (isFunction(current)) out.push(current);
  return out;
}

/** The function of this file a node is or names (`main`, `const run = async () => …`, an inline function). */
export function functionDefinedHere(node: TSESTree.Node, sourceCode: DetectContext['sourceCode']): FunctionNode | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'FunctionExpression' || value.type === 'ArrowFunctionExpression') return value;
  if (value.type !== 'Identifier') return undefined;
  const def = scopeVariable(sourceCode, value)?.defs[0]?.node;
  if (def?.type === 'FunctionDeclaration') return def;
  const init = def?.type === 'VariableDeclarator' && def.init ? unwrapExpression(def.init) : undefined;
  return init && isFunction(init) ? init : undefined;
}

/** A string or template argument that holds schema DDL (`'CREATE TABLE …'`, `` `ALTER TABLE ${t} …` ``). */
const isDdlText = (node: TSESTree.Node): boolean =>
  (node.type === 'Literal' && typeof node.value === 'string' && SCHEMA_DDL.test(node.value)) ||
  (node.type === 'TemplateLiteral' && node.quasis.some((quasi) => SCHEMA_DDL.test(quasi.value.cooked ?? quasi.value.raw)));

export interface MigrationPath {
  /** Whether any call on the migration path is in view. */
  known: boolean;
  /** Whether a catch clause handles failures of the migration run. */
  catches(clause: TSESTree.CatchClause): boolean;
  /** Whether `.catch(…)` / `.then(ok, fail)` handles a promise of the migration run. */
  handles(call: TSESTree.CallExpression): boolean;
  /**
   * The call that runs the migrations, where a finding about the run belongs: the first migrator run
   * (`await migrate(db, …)`), else the first outermost call named for a run (`await runMigrations(pool)`,
   * not a step inside the `runMigrations` defined here), else
   * the first call that sends DDL.
   */
  runCall: TSESTree.CallExpression | undefined;
}

/** The migration path of an entrypoint file (see above). */
export function migrationPath(
  context: DetectContext,
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  strings: readonly string[],
): MigrationPath {
  const onPath = new Set<TSESTree.CallExpression>();
  const runs: TSESTree.CallExpression[] = [];
  const named: TSESTree.CallExpression[] = [];
  const ddl: TSESTree.CallExpression[] = [];
  for (const run of migratorRuns(context, program, calls, strings)) if (run.call) runs.push(run.call);
  for (const call of calls) {
    const name = calleeName(call);
    if ((name !== undefined && (namesMigrationRunner(name) || mayNameMigrationRun(name))) || isMigratorVerbCall(call)) named.push(call);
    // A run told by its DDL: the call that sends it (`await client.query('ALTER TABLE …')`).
    else if (call.arguments.some(isDdlText)) ddl.push(call);
  }
  for (const call of [...runs, ...named, ...ddl]) onPath.add(call);
  const first = (found: TSESTree.CallExpression[]) =>
    found.reduce<TSESTree.CallExpression | undefined>((a, b) => (a && a.range[0] <= b.range[0] ? a : b), undefined);
  // Of the calls named for a run, the outermost: `runMigrations(pool)` in `main`, not the
  // `applyMigration(…)` inside the `runMigrations` this file defines.
  const outermost = (found: TSESTree.CallExpression[]) =>
    found.filter((call) =>
      found.every((other) => {
        const target = other === call ? undefined : functionDefinedHere(other.callee, context.sourceCode);
        return target === undefined || !contains(target, call);
      }),
    );
  // With none named, the loop's step that applies each migration file (looped-file-runs.ts).
  const runCall = first(runs) ?? first(outermost(named)) ?? first(named) ?? first(loopedFileRuns(calls, context.sourceCode)) ?? first(ddl);
  // Functions that hold a call on the path, and the calls of those functions (to a fixed point: a
  // file has few functions).
  const functions = new Set<FunctionNode>();
  for (let changed = true; changed;) {
    changed = false;
    for (const call of calls) {
      if (!onPath.has(call)) {
        const target = functionDefinedHere(call.callee, context.sourceCode);
        if (!target || !functions.has(target)) continue;
        onPath.add(call);
      }
      for (const fn of enclosingFunctions(call))
        if (!functions.has(fn)) {
          functions.add(fn);
          changed = true;
        }
    }
  }
  const pathCalls = [...onPath];
  const handler = (node: TSESTree.Node) => functionDefinedHere(node, context.sourceCode);
  return {
    known: pathCalls.length > 0,
    runCall,
    catches(clause) {
      const tryBlock = clause.parent.type === 'TryStatement' ? clause.parent.block : undefined;
      return tryBlock !== undefined && pathCalls.some((call) => contains(tryBlock, call));
    },
    handles(call) {
      for (let value = unwrapExpression(call.callee); ;) {
        if (value.type !== 'MemberExpression') return false;
        const object = unwrapExpression(value.object, { await: true });
        if (object.type !== 'CallExpression') return false;
        // `connect().then(() => migrate(db)).catch(log)`: a link whose handler hands the run's failure on (handed-on-runs.ts).
        if (onPath.has(object) || runsInHandedOnLink(object, handler, pathCalls)) return true;
        value = unwrapExpression(object.callee);
      }
    },
  };
}

/** `false`, `null`, `0`, `undefined`: a value a caller reads as "it failed". */
const isFalsyValue = (node: TSESTree.Node | null | undefined): boolean => {
  const value = node && unwrapExpression(node);
  if (!value) return false;
  if (value.type === 'Identifier') return value.name === 'undefined';
  return value.type === 'Literal' && (value.value === false || value.value === null || value.value === 0);
};

/** Whether a statement (or a block's statements) returns a falsy value: `return false`, `{ log(); return false; }`. */
const returnsFalsy = (node: TSESTree.Node | null | undefined): boolean =>
  node?.type === 'ReturnStatement'
    ? isFalsyValue(node.argument)
    : node?.type === 'BlockStatement' &&
      node.body.some((statement) => statement.type === 'ReturnStatement' && isFalsyValue(statement.argument));

/** How far a failure value is followed up through the functions that hand it on (`apply` → `runAll` → the top level). */
const MAX_HAND_ONS = 3;

/** Whether `node` is the name `name`, or `!name`. */
const readsName = (node: TSESTree.Node, name: string): boolean => {
  const value = unwrapExpression(node);
  return value.type === 'Identifier'
    ? value.name === name
    : value.type === 'UnaryExpression' && value.operator === '!' && readsName(value.argument, name);
};

/**
 * The branch of an `if` that runs when the value tested failed: the consequent of `if (!ok)` or
 * `if (ok === false)`, the alternate of `if (ok)`; both when the test says neither.
 */
function failureBranches(statement: TSESTree.IfStatement, tested: (node: TSESTree.Node) => boolean): TSESTree.Statement[] {
  const test = unwrapExpression(statement.test, { await: true });
  const branches = [statement.consequent, ...(statement.alternate ? [statement.alternate] : [])];
  if (test.type === 'UnaryExpression' && test.operator === '!' && tested(test.argument)) return [statement.consequent];
  if (tested(test)) return statement.alternate ? [statement.alternate] : [];
  if (test.type === 'BinaryExpression' && (tested(test.left) || tested(test.right))) return branches;
  return [];
}

/**
 * Whether a failure branch ends the process non-zero, or returns a falsy value from a function of
 * this file whose every call hands the failure on the same way.
 */
function branchFails(
  branch: TSESTree.Statement,
  calls: readonly TSESTree.CallExpression[],
  sourceCode: DetectContext['sourceCode'],
  depth: number,
): boolean {
  if (exitsNonZero(branch)) return true;
  if (!returnsFalsy(branch)) return false;
  const fn = enclosingFunctions(branch)[0];
  return fn !== undefined && failureValueReachesExit(fn, calls, sourceCode, depth + 1);
}

/** The statements after `statement` in its block, up to the end of the block. */
function statementsAfter(statement: TSESTree.Node): TSESTree.Node[] {
  const block = statement.parent;
  if (!block || (block.type !== 'BlockStatement' && block.type !== 'Program')) return [];
  const body = block.body as TSESTree.Node[];
  return body.slice(body.indexOf(statement) + 1);
}

/**
 * Whether the value of a call is tested and a failure ends the process: `f().then((ok) => { if (!ok)
 * process.exit(1) })`, `const ok = await f(); if (!ok) process.exit(1)`, `if (!(await f())) return false`
 * (handed on, see `branchFails`).
 */
function callFailureExits(
  call: TSESTree.CallExpression,
  calls: readonly TSESTree.CallExpression[],
  sourceCode: DetectContext['sourceCode'],
  depth: number,
): boolean {
  let node: TSESTree.Node = call;
  while (node.parent?.type === 'AwaitExpression' || node.parent?.type === 'TSAsExpression' || node.parent?.type === 'TSNonNullExpression')
    node = node.parent;
  const parent = node.parent;
  // `f().then((ok) => { if (!ok) process.exit(1) })`
  if (
    parent?.type === 'MemberExpression' &&
    parent.object === node &&
    memberPropertyName(parent) === 'then' &&
    parent.parent?.type === 'CallExpression'
  ) {
    const handler = parent.parent.arguments[0] && unwrapExpression(parent.parent.arguments[0]);
    const param = handler && isFunction(handler) ? handler.params[0] : undefined;
    if (!handler || !isFunction(handler) || param?.type !== 'Identifier') return false;
    const name = param.name;
    const body = handler.body;
    const statements = body.type === 'BlockStatement' ? body.body : [];
    return statements.some((s) => s.type === 'IfStatement' && failureBranches(s, (n) => readsName(n, name)).some((b) => exitsNonZero(b)));
  }
  // `if (!(await f()))`
  const test = parent?.type === 'UnaryExpression' && parent.operator === '!' ? parent : node;
  if (test.parent?.type === 'IfStatement' && test.parent.test === test)
    return failureBranches(test.parent, (n) => unwrapExpression(n, { await: true }) === call).some((b) =>
      branchFails(b, calls, sourceCode, depth),
    );
  // `const ok = await f(); … if (!ok) …`
  if (
    parent?.type === 'VariableDeclarator' &&
    parent.init === node &&
    parent.id.type === 'Identifier' &&
    parent.parent.type === 'VariableDeclaration'
  ) {
    const name = parent.id.name;
    return statementsAfter(parent.parent).some(
      (s) =>
        s.type === 'IfStatement' && failureBranches(s, (n) => readsName(n, name)).some((b) => branchFails(b, calls, sourceCode, depth)),
    );
  }
  return false;
}

/** Whether every call of `fn` in this file (one at least) tests its result and ends the process on a failure. */
function failureValueReachesExit(
  fn: FunctionNode,
  calls: readonly TSESTree.CallExpression[],
  sourceCode: DetectContext['sourceCode'],
  depth: number,
): boolean {
  if (depth > MAX_HAND_ONS) return false;
  const users = calls.filter((call) => call.callee.type === 'Identifier' && functionDefinedHere(call.callee, sourceCode) === fn);
  return users.length > 0 && users.every((call) => callFailureExits(call, calls, sourceCode, depth));
}

/**
 * Whether a catch clause returns its failure as a value that the callers turn into a non-zero exit:
 * `catch (err) { log(err); return false }` in a function whose every call tests the value and exits
 * 1 on it, directly or through functions that hand the `false` on (`if (!ok) return false`).
 */
export function returnsFailureToExit(
  clause: TSESTree.CatchClause,
  calls: readonly TSESTree.CallExpression[],
  sourceCode: DetectContext['sourceCode'],
): boolean {
  if (!returnsFalsy(clause.body)) return false;
  const fn = enclosingFunctions(clause)[0];
  return fn !== undefined && failureValueReachesExit(fn, calls, sourceCode, 0);
}

const REJECTION_EVENTS: ReadonlySet<string> = new Set(['unhandledRejection', 'uncaughtException']);
const LISTEN_METHODS: ReadonlySet<string> = new Set(TIMER_LIFETIME.listenerMethods);

/**
 * Whether the file installs a `process.on('unhandledRejection' | 'uncaughtException', …)` handler
 * that neither exits non-zero nor rethrows. Since Node 15 an unhandled rejection ends the process
 * with code 1 (`--unhandled-rejections=throw`, the default) unless such a handler takes it over.
 */
export function swallowsUnhandledRejections(calls: readonly TSESTree.CallExpression[]): boolean {
  return calls.some((call) => {
    const callee = unwrapExpression(call.callee);
    if (callee.type !== 'MemberExpression' || !LISTEN_METHODS.has(memberPropertyName(callee) ?? '')) return false;
    const [event, handler] = call.arguments;
    if (!isProcessGlobal(callee.object) || event?.type !== 'Literal' || !REJECTION_EVENTS.has(String(event.value)) || !handler)
      return false;
    const fn = unwrapExpression(handler);
    // A handler defined elsewhere is not known to swallow.
    return isFunction(fn) && !exitsNonZero(fn.body);
  });
}
