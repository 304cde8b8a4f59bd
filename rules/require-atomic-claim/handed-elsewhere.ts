// A worker that hands the row it read to a function of another project module (`await
// processJob(job)` imported from `./job.service`, `await this.repo.markSent(row.id)` on an injected
// repository) marks the row where that function does: an update keyed by the parameter that
// received the row, moving it on with no re-check of its state. The question is asked of the
// module's summary (analysis/modules) and cached per function; a function that claims the row
// with a checked conditional transition, or only reads, marks nothing unsafely.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { defineFunctionFact, projectFunctionOf } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { rowUpdateOf, type ClaimVocabulary, type RowUpdate } from './claim-shapes.js';
import { mentionsAny } from './row-names.js';

/** The built-in vocabulary: another module's update is judged without the linted file's options. */
const BUILT_IN: ClaimVocabulary = { statusColumns: [], queueTables: [] };

/** A relative import or require (`from './job.service'`, `require('../store')`): the file may hand its rows to a module of the project. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\brequire\s*\(\s*)['"]\.\.?\//;
export const importsProjectModule = (text: string): boolean => RELATIVE_IMPORT.test(text);

interface ParameterMark {
  index: number;
  table: string | undefined;
}

/** The parameters (by position) whose row the function moves on by an update keyed by it, with no checked re-check. */
export const marksHandedRows = defineFunctionFact<readonly ParameterMark[]>(
  'marks the row a parameter names without a re-check',
  [],
  (fn) => {
    const sourceCode = fn.module.sourceCode as unknown as Readonly<TSESLint.SourceCode>;
    const keys = sourceCode.visitorKeys;
    const marks: ParameterMark[] = [];
    fn.fn.params.forEach((param, index) => {
      const id = param.type === 'AssignmentPattern' ? param.left : param;
      if (id.type !== 'Identifier') return;
      for (const node of descendants(fn.fn.body, keys, isFunctionNode)) {
        if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
        const update = rowUpdateOf(node, sourceCode, BUILT_IN);
        if (!update?.changesState || !mentionsAny(node, [id.name], keys)) continue;
        if (!(update.conditional && update.countChecked)) marks.push({ index, table: update.table });
        break;
      }
    });
    return marks;
  },
);

/**
 * The unsafe mark a call makes in a function of another project module, with the call as its node:
 * an argument that hands the row (`handsRow`) lands on a parameter that function marks by its key.
 */
export function markInOtherModule(
  context: DetectContext,
  call: TSESTree.CallExpression,
  handsRow: (n: TSESTree.Node) => boolean,
): RowUpdate | undefined {
  if (!call.arguments.some((a) => handsRow(a))) return undefined;
  const target = projectFunctionOf(context, call.callee);
  if (!target || target.module.sourceCode === (context.sourceCode as unknown)) return undefined;
  const mark = marksHandedRows(target).find(({ index }) => {
    const argument = call.arguments[index];
    return argument !== undefined && argument.type !== 'SpreadElement' && handsRow(argument);
  });
  return mark ? { node: call, conditional: false, countChecked: false, changesState: true, table: mark.table } : undefined;
}
