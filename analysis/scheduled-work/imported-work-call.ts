// A bare timer whose work, written in place, only calls a function of another project module:
// `setInterval(() => void archiveStale(db), ms)`, `setInterval(async () => { await purge(pool); log(…) })`,
// or a same-file `tick()` doing only that. Log lines and a `try` around the calls are allowed;
// anything else (a condition, a loop, a value of its own) is work of this file, judged as such.
// Handed the database handle, that function is a job over the shared database (the timer exists
// to run it each period, as a declared job does); without one, it may as well be this process's
// own upkeep (a health check, a lease it renews, a local queue), and stays a bare timer's call.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { namesDatabaseHandle } from '../../src/knowledge/migrators.js';
import { namesDatabaseFactory } from '../../src/knowledge/database-factories.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { ownOrLocalName } from '../ast/own-or-local-name.js';
import { importSource } from './in-memory-values.js';
import { isLogLine } from './lease-gate.js';
import { isFunctionLike, ownMethodCalled, resolveWorkFunction, type FunctionLike } from './work-function.js';

/** Promise chain links that only wait on, or report, the call they hang from. */
const SETTLE_METHODS: readonly string[] = ['catch', 'then', 'finally'];

/** `await f(x)`, `void f(x).catch(…)`, `f(x)`: the call a statement's expression makes, through its settle chain. */
function callOf(expression: TSESTree.Node | null | undefined): TSESTree.CallExpression | undefined {
  if (!expression) return undefined;
  let node = unwrapExpression(expression, { await: true });
  if (node.type === 'UnaryExpression' && node.operator === 'void') node = unwrapExpression(node.argument, { await: true });
  while (
    node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    SETTLE_METHODS.includes(memberPropertyName(node.callee) ?? '') &&
    unwrapExpression(node.callee.object).type === 'CallExpression'
  )
    node = unwrapExpression(node.callee.object);
  return node.type === 'CallExpression' ? node : undefined;
}

/** `archiveStale`, `jobs.archiveStale`: the identifier a callee is rooted at, one member deep at most. */
function calleeRoot(callee: TSESTree.Node): TSESTree.Identifier | undefined {
  const node = unwrapExpression(callee);
  if (node.type === 'Identifier') return node;
  if (node.type === 'MemberExpression' && !node.computed) {
    const object = unwrapExpression(node.object);
    return object.type === 'Identifier' ? object : undefined;
  }
  return undefined;
}

/** What a statement computes: an expression statement's, a `return`'s, a single declarator's value. */
function expressionOf(statement: TSESTree.Node): TSESTree.Node | null | undefined {
  if (statement.type === 'ExpressionStatement') return statement.expression;
  if (statement.type === 'ReturnStatement') return statement.argument;
  if (statement.type === 'VariableDeclaration' && statement.declarations.length === 1) return statement.declarations[0]!.init;
  return undefined;
}

/** A function's statements; an expression body is its own one. */
function statementsOf(fn: FunctionLike): readonly TSESTree.Node[] {
  return fn.body.type === 'BlockStatement' ? fn.body.body : [fn.body];
}

/**
 * Whether every statement is a log line, a call of an imported project function (awaited, kept in
 * a local, returned), a call of a same-file function doing only that, or a `try` of those; the
 * imported functions' calls go in `calls`.
 */
function onlyCallsImportedWork(
  sourceCode: SourceCode,
  statements: readonly TSESTree.Node[],
  calls: TSESTree.CallExpression[],
  depth: number,
): boolean {
  return statements.every((statement) => {
    if (statement.type === 'TryStatement') return onlyCallsImportedWork(sourceCode, statement.block.body, calls, depth);
    if (statement.type === 'ExpressionStatement' && isLogLine(statement)) return true;
    const call = callOf(
      statement.type.endsWith('Statement') || statement.type === 'VariableDeclaration' ? expressionOf(statement) : statement,
    );
    const root = call && calleeRoot(call.callee);
    if (!call || !root) return false;
    if (isProjectModuleSpecifier(importSource(sourceCode, root))) return calls.push(call) > 0;
    if (depth === 0 || call.callee.type !== 'Identifier') return false;
    const local = resolveWorkFunction(sourceCode, call.callee)?.fn;
    return local !== undefined && onlyCallsImportedWork(sourceCode, statementsOf(local), calls, depth - 1);
  });
}

/** The calls of project functions that a work written in place only makes, or undefined when it does more. */
export function importedProjectWorkCalls(sourceCode: SourceCode, fn: FunctionLike | undefined): TSESTree.CallExpression[] | undefined {
  if (!fn || !isFunctionLike(fn)) return undefined;
  const calls: TSESTree.CallExpression[] = [];
  return onlyCallsImportedWork(sourceCode, statementsOf(fn), calls, 1) && calls.length > 0 ? calls : undefined;
}

/**
 * `archiveStale(db)`, `purge(this.pool, days)`, `refreshTotals(createSqlClient)`: a call handed the database handle, or the
 * function giving one (a name that says so, not a bare `client`).
 */
export function handsDatabaseHandle(call: TSESTree.CallExpression): boolean {
  return call.arguments.some((argument) => {
    const name = ownOrLocalName(unwrapExpression(argument));
    return name !== undefined && (namesDatabaseHandle(name) || namesDatabaseFactory(name));
  });
}

/** The function of the file a work's only statement calls (`async () => { await refreshTiers(); }`), or undefined. */
export function onlyLocalFunctionCalled(sourceCode: SourceCode, fn: FunctionLike): FunctionLike | undefined {
  const statements = statementsOf(fn);
  const only = statements.length === 1 ? statements[0]! : undefined;
  const call = only && callOf(only.type === 'ExpressionStatement' || only.type === 'ReturnStatement' ? expressionOf(only) : only);
  if (!call) return undefined;
  // `refreshTiers()` of the file, or a method of the class (`this.checkExpired()`).
  const local = call.callee.type === 'Identifier' ? resolveWorkFunction(sourceCode, call.callee)?.fn : ownMethodCalled(call);
  return local !== fn ? local : undefined;
}
