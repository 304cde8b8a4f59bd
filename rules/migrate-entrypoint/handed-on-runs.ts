// A run started in a link of a promise chain: `db.authenticate().then(() => db.sync({ alter: true })).then(log).catch(log)`.
// The `.then(…)` handler returns the run's promise, so a failed run rejects the links after it, and a
// `.catch(…)` further down the chain handles the run's failure as surely as one on the run's own call
// (failure-paths.ts asks it of each link it walks). A handler that starts the run without handing its
// promise on (`.then(() => { db.sync(); })`) does not: the rejection is nobody's, and Node exits non-zero.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { nodeContains as contains } from '../../analysis/ast/node-contains.js';

type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** Whether a function hands a call's failure on to its caller: `async` (an awaited run rejects it), an expression body, or a `return` of the call. */
function handsOn(fn: FunctionNode, pathCalls: readonly TSESTree.CallExpression[]): boolean {
  if (fn.async || fn.body.type !== 'BlockStatement') return true;
  return fn.body.body.some(
    (statement) =>
      statement.type === 'ReturnStatement' && statement.argument !== null && pathCalls.some((call) => contains(statement.argument!, call)),
  );
}

/**
 * Whether a link of a chain (`x.then(handler)`) runs the migrations in its handler and hands the run's
 * failure on: `handler` is a function of this file (`handlerFunction`) that holds a call on the migration path.
 */
export function runsInHandedOnLink(
  link: TSESTree.CallExpression,
  handlerFunction: (node: TSESTree.Node) => FunctionNode | undefined,
  pathCalls: readonly TSESTree.CallExpression[],
): boolean {
  const [handler] = link.arguments;
  if (!handler || memberPropertyName(unwrapExpression(link.callee)) !== 'then') return false;
  const fn = handlerFunction(handler);
  return fn !== undefined && pathCalls.some((call) => contains(fn.body, call)) && handsOn(fn, pathCalls);
}
