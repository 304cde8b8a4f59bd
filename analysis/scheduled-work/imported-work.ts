// A bare timer handed a function of another project module by reference (`setInterval(checkDue,
// ms, client)` with `import { checkDue } from './jobs/check-due'`): the timer exists only to run
// that module's job every period, as a declared job does. The module is named by a relative
// specifier (or a project alias); a package's function (`setInterval(gc, ms)`) is not the project's.
// An inline function that only calls it (`setInterval(() => handleStale(client), ms)`) hands it over the same way.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { importSource, valueOf } from './in-memory-values.js';
import type { ScheduledWork } from './scheduled-work.js';

/** `checkDue`, `jobs.checkDue`, `checkDue.bind(null)`: the name a reference is rooted at. */
function referenceRoot(expression: TSESTree.Node): TSESTree.Identifier | undefined {
  let node = unwrapExpression(expression);
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && memberPropertyName(node.callee) === 'bind')
    node = unwrapExpression(node.callee.object);
  if (node.type === 'MemberExpression' && !node.computed) node = unwrapExpression(node.object);
  return node.type === 'Identifier' ? node : undefined;
}

/** `const tick = lockedTick(…)`: a value a call made, not the imported function itself (`require(…)` aside). */
function madeByCall(sourceCode: SourceCode, identifier: TSESTree.Identifier): boolean {
  const init = valueOf(sourceCode, identifier);
  const value = init && unwrapExpression(init, { await: true });
  const call = value?.type === 'MemberExpression' ? unwrapExpression(value.object) : value;
  return call?.type === 'CallExpression' && !(call.callee.type === 'Identifier' && call.callee.name === 'require');
}

/** `() => handleStale(client, ms)`, `async () => { await jobs.sweep(); }`: an inline function whose one statement calls that function. */
function onlyCalled(expression: TSESTree.Node): TSESTree.Node | undefined {
  if (expression.type !== 'ArrowFunctionExpression' && expression.type !== 'FunctionExpression') return undefined;
  let body: TSESTree.Node = expression.body;
  if (body.type === 'BlockStatement') {
    const only = body.body.length === 1 ? body.body[0]! : undefined;
    body =
      only?.type === 'ExpressionStatement' ? only.expression : only?.type === 'ReturnStatement' && only.argument ? only.argument : body;
  }
  let call = unwrapExpression(body, { await: true });
  if (call.type === 'UnaryExpression' && call.operator === 'void') call = unwrapExpression(call.argument, { await: true });
  return call.type === 'CallExpression' ? call.callee : undefined;
}

/** A bare timer's work handed over by reference, or only called by an inline function, imported from another module of the project. */
export function runsImportedProjectWork(sourceCode: SourceCode, work: ScheduledWork): boolean {
  if (!work.entry.bareTimer || work.loopBody || !work.expression) return false;
  const reference = work.resolved?.fn ? (work.resolved.fn === work.expression ? onlyCalled(work.expression) : undefined) : work.expression;
  const root = reference && referenceRoot(reference);
  return root !== undefined && !madeByCall(sourceCode, root) && isProjectModuleSpecifier(importSource(sourceCode, root));
}
