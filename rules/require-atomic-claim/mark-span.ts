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
import { rowUpdateOf, type ClaimVocabulary, type DatabaseCall, type PendingRead, type RowUpdate } from './claim-shapes.js';
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
 * The report's place for `read` marked by `update` (or by each of `later`, the marks in source order):
 * from the read to the first mark in the read's function, after it — not a delete of another table's
 * rows (the read rows' children: work on them, not their mark), nor a mark on a path that leaves the
 * row early when a later one does not. A row handed to a same-file handler written after the call
 * is marked where the handler writes it. With no mark there, a SELECT held in a constant of the
 * read's function spans to the call that sends it.
 */
export function claimSpan(
  read: PendingRead,
  update: DatabaseCall,
  fn: FunctionNode | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
  vocabulary: ClaimVocabulary,
  later: readonly RowUpdate[] = [],
): ClaimSpan {
  const at = read.loc ?? read.reportNode.loc;
  // Rows handed to the read's `.then` callback are marked inside it (then-rows.ts).
  const after = thenRows(read.node)?.from ?? read.node.range[1];
  const program = programOf(read.node);
  const endOf = ({ node, write }: { node: DatabaseCall; write?: DatabaseCall | undefined }): DatabaseCall | undefined => {
    if (node.range[0] < after || !inOwnCode(node, fn, program)) return undefined;
    if (differentTables(read.named, rowUpdateOf(write ?? node, sourceCode, vocabulary)?.deletes)) return undefined;
    return write && write.range[0] > node.range[1] ? write : node;
  };
  // The first mark, but not one on a path that leaves the row early (`row.status = 'skipped'; await row.save(); continue`).
  const ends = (later.length > 0 ? later : [{ node: update }]).map(endOf).filter((e): e is DatabaseCall => e !== undefined);
  const end = ends.find((e) => !leavesEarly(e)) ?? ends[0];
  if (!end) return { loc: sentLater(read, fn) ? { start: at.start, end: read.node.loc.end } : read.loc, markedAt: '' };
  return { loc: { start: at.start, end: end.loc.end }, markedAt: ` (at line ${end.loc.start.line}, where this report ends)` };
}

/** Whether `mark` is in a block that then leaves the iteration or the function (`…; continue`, `…; return`). */
function leavesEarly(mark: TSESTree.Node): boolean {
  let statement: TSESTree.Node = mark;
  while (statement.parent && statement.parent.type !== 'BlockStatement') {
    if (isFunctionNode(statement.parent)) return false;
    statement = statement.parent;
  }
  const block = statement.parent;
  if (block?.type !== 'BlockStatement' || block.parent?.type !== 'IfStatement') return false;
  const rest = block.body.slice(block.body.indexOf(statement as TSESTree.Statement) + 1);
  return rest.some((s) => s.type === 'ContinueStatement' || s.type === 'ReturnStatement' || s.type === 'BreakStatement');
}

/** A SELECT held in a constant of the read's own function, above the call that sends it (`const sql = `SELECT …`; await query(sql)`). */
function sentLater(read: PendingRead, fn: FunctionNode | undefined): boolean {
  const held = read.reportNode;
  if (!read.loc || !fn || held.range[1] > read.node.range[0]) return false;
  return held.range[0] > fn.range[0] && read.node.range[1] < fn.range[1];
}
