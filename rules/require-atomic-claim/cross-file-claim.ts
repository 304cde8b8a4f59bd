// A project function that claims a row with a checked conditional transition (`updateMany({ where:
// { id, status: 'PENDING' } })` whose count it tests or returns, `UPDATE … WHERE id = $1 AND
// status = 'pending'` with its row count used), itself or through the functions it calls
// (analysis/modules). A worker that calls such a function, and uses its answer, before it marks a
// row has claimed that row.
import type { TSESLint } from '@typescript-eslint/utils';
import { defineFunctionFact } from '../../analysis/modules/index.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { rowUpdateOf, type ClaimVocabulary } from './claim-shapes.js';

/** The built-in vocabulary: another module's claim is judged without the linted file's options. */
const BUILT_IN: ClaimVocabulary = { statusColumns: [], queueTables: [] };

export const claimsRowConditionally = defineFunctionFact<boolean>('claims a row with a checked conditional update', false, (fn, follow) => {
  const sourceCode = fn.module.sourceCode as unknown as Readonly<TSESLint.SourceCode>;
  for (const node of descendants(fn.fn.body, sourceCode.visitorKeys, isFunctionNode)) {
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    const update = rowUpdateOf(node, sourceCode, BUILT_IN);
    if (update?.conditional && update.countChecked) return true;
    if (node.type !== 'CallExpression') continue;
    const target = follow(node.callee);
    if (target && claimsRowConditionally(target)) return true;
  }
  return false;
});
