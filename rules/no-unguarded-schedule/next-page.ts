// A `setTimeout` that runs the function it sits in again on the next page of one run: the timer's
// work calls that function with one of its own parameters advanced (`manage(skip + limit, limit)`,
// `sync(page + 1)`), and the function leaves before the timer once there is nothing left
// (`if (rows.length === 0) return;`). The run was started once, where it was started (a cron job
// judged on its own); each page continues it rather than starting a period.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { exits } from '../../analysis/scheduled-work/exit-tests.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { descendants } from '../../analysis/sql/descendants.js';

function enclosingFunction(node: TSESTree.Node): FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/** `skip + limit`, `page + 1`: one of `fn`'s parameters advanced. */
function advancesParameter(sourceCode: SourceCode, argument: TSESTree.Node, fn: FunctionLike): boolean {
  if (argument.type !== 'BinaryExpression' || argument.operator !== '+') return false;
  return [argument.left, argument.right].some((side) => {
    const def = side.type === 'Identifier' ? scopeVariable(sourceCode, side)?.defs[0] : undefined;
    return def?.type === 'Parameter' && def.node === fn;
  });
}

/** A call of `setter` by its name in `work`, handed one of its parameters advanced. */
function callsWithNextPage(sourceCode: SourceCode, work: FunctionLike, setter: FunctionLike): boolean {
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') continue;
    const def = scopeVariable(sourceCode, node.callee)?.defs[0];
    const target =
      def?.type === 'FunctionName' ? def.node : def?.type === 'Variable' ? (def.node as TSESTree.VariableDeclarator).init : undefined;
    if (target === setter && node.arguments.some((a) => advancesParameter(sourceCode, a, setter))) return true;
  }
  return false;
}

/** `setter`'s own statements leave early (`if (rows.length === 0) return;`) before the one holding the timer. */
function leavesBefore(setter: FunctionLike, schedule: TSESTree.Node): boolean {
  if (setter.body.type !== 'BlockStatement') return false;
  for (const statement of setter.body.body) {
    if (statement.range[0] <= schedule.range[0] && schedule.range[1] <= statement.range[1]) return false;
    if (statement.type === 'IfStatement' && exits(statement.consequent)) return true;
  }
  return false;
}

/** Whether the timer at `schedule`, running `work`, pages on through the run of the function it sits in. */
export function pagesOn(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  const setter = enclosingFunction(schedule);
  return setter !== undefined && setter !== work && callsWithNextPage(sourceCode, work, setter) && leavesBefore(setter, schedule);
}
