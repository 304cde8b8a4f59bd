// A bare timer handed a function of another project module by reference (`setInterval(checkDue,
// ms, client)` with `import { checkDue } from './jobs/check-due'`): the timer exists only to run
// that module's job every period, as a declared job does. The module is named by a relative
// specifier (or a project alias); a package's function (`setInterval(gc, ms)`) is not the project's.
// A timer that hands the function this file's in-memory cache to fill (`setInterval(loadRates, ms,
// rates, settings)` with `const rates = new NodeCache()`), and no database handle, runs a refresh of
// this process's memory: it is judged as a bare timer, by what the function is seen to do.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { importSource, isInMemoryValue, valueOf } from './in-memory-values.js';
import { handsDatabaseHandle } from './imported-work-call.js';
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
export function madeByCall(sourceCode: SourceCode, identifier: TSESTree.Identifier): boolean {
  const init = valueOf(sourceCode, identifier);
  const value = init && unwrapExpression(init, { await: true });
  const call = value?.type === 'MemberExpression' ? unwrapExpression(value.object) : value;
  return call?.type === 'CallExpression' && !(call.callee.type === 'Identifier' && call.callee.name === 'require');
}

/** The timer hands the work, after the period, a structure this file builds in memory and no database handle. */
function handsOwnMemory(sourceCode: SourceCode, work: ScheduledWork): boolean {
  const timer = work.schedulerNode;
  const at = work.expression ? timer.arguments.indexOf(work.expression as TSESTree.CallExpressionArgument) : -1;
  if (timer.type !== 'CallExpression' || at < 0) return false;
  const handed = timer.arguments.slice(at + 2);
  const inMemory = (a: TSESTree.Node) => a.type === 'Identifier' && isInMemoryValue(sourceCode, valueOf(sourceCode, a));
  return handed.some(inMemory) && !handsDatabaseHandle({ ...timer, arguments: handed });
}

/** A bare timer's work handed over by reference, imported from another module of the project. */
export function runsImportedProjectWork(sourceCode: SourceCode, work: ScheduledWork): boolean {
  if (!work.entry.bareTimer || work.resolved?.fn || work.loopBody || !work.expression) return false;
  const root = referenceRoot(work.expression);
  if (root === undefined || madeByCall(sourceCode, root) || !isProjectModuleSpecifier(importSource(sourceCode, root))) return false;
  return !handsOwnMemory(sourceCode, work);
}
