// A worker that hands the row it read to a handler of the same file (`await processJob(job.id)`,
// `await this.deliver(row)`) marks the row where the handler does: an update in the handler's body
// keyed by the parameter that received the row (`update({ where: { id: jobId }, data: { status:
// 'processing' } })`) moves that row on, one call away from the loop; a list of rows handed whole
// (`await settleAll(rows)`) is marked by the handler's loop over it. A handler that wraps its work in
// `return new Promise(async (resolve) => …)` marks the row inside the executor, which runs at once.
// Followed one call deep; a handler of another module, or one that only reads, marks nothing here.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { resolveCallee } from '../../analysis/scheduled-work/external-effects.js';
import { rowUpdateOf, type ClaimVocabulary, type RowUpdate } from './claim-shapes.js';
import { mentionsAny } from './row-names.js';
import { differentTables } from './tables.js';
import { iteratedNames } from './loop-rows.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The executor of `new Promise((resolve, reject) => …)`: run at once, as part of the handler. */
const isPromiseExecutor = (node: TSESTree.Node): boolean =>
  node.parent?.type === 'NewExpression' &&
  node.parent.arguments[0] === node &&
  node.parent.callee.type === 'Identifier' &&
  node.parent.callee.name === 'Promise';

/** A function the handler's body defines and does not run at once: its writes are not the handler's. */
const deferred = (node: TSESTree.Node): boolean => isFunctionNode(node) && !isPromiseExecutor(node);

/** The names of the handler's parameters that receive an argument mentioning the row. */
function parametersGivenRow(
  call: TSESTree.CallExpression,
  params: readonly TSESTree.Parameter[],
  handsRow: (n: TSESTree.Node) => boolean,
): string[] {
  const names: string[] = [];
  call.arguments.forEach((argument, index) => {
    const param = params[index];
    const id = param?.type === 'AssignmentPattern' ? param.left : param;
    if (argument.type !== 'SpreadElement' && id?.type === 'Identifier' && handsRow(argument)) names.push(id.name);
  });
  return names;
}

/**
 * The first update of the handed row in the body of the same-file handler `call` runs, with the
 * call as its node (where the loop marks the row); undefined when the handler re-checks the state
 * and tests the count, or marks nothing of that table.
 */
export function updateInHandler(
  call: TSESTree.CallExpression,
  handsRow: (n: TSESTree.Node) => boolean,
  sourceCode: SourceCode,
  vocabulary: ClaimVocabulary,
  readTable: string | undefined,
  moves: (node: TSESTree.Node) => boolean = () => false,
): RowUpdate | undefined {
  const handler = resolveCallee(sourceCode as never, call);
  if (!handler || handler.body.type !== 'BlockStatement') return undefined;
  const given = parametersGivenRow(call, handler.params, handsRow);
  if (given.length === 0) return undefined;
  const keys = sourceCode.visitorKeys;
  // A list of rows handed whole is marked row by row in the handler's loop over it.
  const received = [...given, ...iteratedNames(handler.body, given, keys)];
  for (const node of descendants(handler.body, keys, deferred)) {
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    const update = rowUpdateOf(node, sourceCode, vocabulary);
    if (
      !(update?.changesState || (update && moves(node))) ||
      !mentionsAny(node, received, keys) ||
      differentTables(readTable, update.table)
    )
      continue;
    return update.conditional && update.countChecked ? undefined : { ...update, changesState: true, node: call, write: node };
  }
  return undefined;
}
