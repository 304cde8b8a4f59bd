// Where a claim is reported. The race is the whole window between the read of pending rows and
// the write that marks a read row (`UPDATE … WHERE id = $1`, `row.save()`, `update({ … }, { where:
// { id } })`): two replicas both read before either marks. When that write sits in the read's own
// function, after the read — in its body, a loop over the rows, or a callback handed the rows
// (`rows.forEach(async (r) => …)`) — the report spans from the read to the end of the write, and
// its message names the write's line; a row (or the list) handed to a helper that marks it ends
// the span at that call. A mark only inside a helper elsewhere, a delete of another table's rows
// (the read rows' children), or none at all (rows only sent or published) leaves the report on the
// read. The start stays on the read either way, so an `eslint-disable-next-line` above the read
// keeps working.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode, type FunctionNode } from '../../analysis/sql/enclosing-function.js';
import { programOf } from '../../analysis/ast/program-of.js';
import { thenRows } from './then-rows.js';
import { rowUpdateOf, type ClaimVocabulary, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { differentTables } from './tables.js';

export interface ClaimSpan {
  loc: TSESTree.SourceLocation | undefined;
  /** The message's words for where the rows are marked: ` (at line N)`, or nothing. */
  markedAt: string;
}

/** A function `update` sits in on its way up to `fn` that is a callback handed to a call (`rows.forEach(…)`, `.then(…)`). */
const isCallback = (node: FunctionNode): boolean =>
  (node.parent?.type === 'CallExpression' || node.parent?.type === 'NewExpression') && node.parent.callee !== node;

/** Whether `update` is written in `fn`'s own code (or the module's, `program`, without `fn`), callbacks included. */
function inOwnCode(update: TSESTree.Node, fn: FunctionNode | undefined, program: TSESTree.Node | undefined): boolean {
  for (let current = update.parent; current; current = current.parent) {
    if (current === (fn ?? program)) return true;
    if (isFunctionNode(current) && !isCallback(current)) return false;
  }
  return false;
}

/**
 * The report's place for `read` marked by `update`: from the read to the mark when the mark is in
 * the read's function, after it — not a delete of another table's rows (the read rows' children:
 * work on them, not their mark).
 */
export function claimSpan(
  read: PendingRead,
  update: DatabaseCall,
  fn: FunctionNode | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
  vocabulary: ClaimVocabulary,
): ClaimSpan {
  const at = read.loc ?? read.reportNode.loc;
  // Rows handed to the read's `.then` callback are marked inside it (then-rows.ts).
  const after = thenRows(read.node)?.from ?? read.node.range[1];
  const atRead = { loc: read.loc, markedAt: '' };
  if (update.range[0] < after || !inOwnCode(update, fn, programOf(read.node))) return atRead;
  if (differentTables(read.named, rowUpdateOf(update, sourceCode, vocabulary)?.deletes)) return atRead;
  return { loc: { start: at.start, end: update.loc.end }, markedAt: ` (at line ${update.loc.start.line}, where this report ends)` };
}
