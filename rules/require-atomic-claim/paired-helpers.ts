// A data module's two halves of a worker's claim, in two functions of one file: one hands out the
// rows still in a state (`findDue()`: `SELECT … WHERE sent_at IS NULL AND remind_at < now()`,
// whole-table, nothing of one caller's in the filter), another marks one row by its key and sets
// that same state with no re-check (`markSent(id)`: `UPDATE … SET sent_at = now() WHERE id = $1`).
// Whoever calls them in turn — a worker on every replica — reads the same rows and acts on them
// twice: the read's filter names the state the mark writes, so the file alone shows the claim.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction, isFunctionNode, type FunctionNode } from '../../analysis/sql/enclosing-function.js';
import { methodChain } from '../../analysis/sql/method-chain.js';
import { sqlSentBy } from '../../analysis/sql/sql-text.js';
import { parseSql } from '../../src/knowledge/sql.js';
import { rowUpdateOf, writtenValues, type ClaimVocabulary, type DatabaseCall, type PendingRead, type RowUpdate } from './claim-shapes.js';
import { setColumns } from './filter-marks.js';
import { keyName, mentionsAny, patternNames, resultNames } from './row-names.js';
import { differentTables } from './tables.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Node = TSESTree.Node;

/** Parameters a whole-table read may still take: how many rows, and up to when. */
const SCAN_PARAMETER = /limit|batch|size|count|max|take|now|date|time|before|cutoff|until|at$/i;

/** A count read off the result (`rowCount`, `rows.length`, `count`): no rows handed out. */
const COUNT_READ = /\.(?:rowCount|length|count|affectedRows|rowsAffected)\b/;

const parameterNames = (fn: FunctionNode): string[] => fn.params.flatMap((p) => patternNames(p));

/** Whether the read is a helper's whole-table scan whose rows it hands out: returned, and filtered by nothing a caller names. */
function handsOutPendingRows(read: PendingRead, fn: FunctionNode, sourceCode: SourceCode): boolean {
  const keys = sourceCode.visitorKeys;
  const sourceText = (node: Node): string => sourceCode.getText(node);
  const given = parameterNames(fn).filter((name) => !SCAN_PARAMETER.test(name));
  if (mentionsAny(read.node, given, keys)) return false;
  const bound = resultNames(read.node);
  for (const node of [fn.body, ...descendants(fn.body, keys, isFunctionNode)]) {
    if (node.type === 'ReturnStatement' && node.argument) {
      if (node.argument.range[0] <= read.node.range[0] && node.argument.range[1] >= read.node.range[1]) return true;
      // `return result.rows`, not `return result.rowCount`: the rows themselves go to the caller.
      if (mentionsAny(node.argument, bound, keys) && !COUNT_READ.test(sourceText(node.argument))) return true;
    }
  }
  // `async () => pool.query(…)`: the body is the read.
  return fn.body.range[0] <= read.node.range[0] && fn.body.range[1] >= read.node.range[1] && fn.body.type !== 'BlockStatement';
}

/** The columns an update sets, lower-cased: a SQL `SET` list, or a builder's values object keys. */
export function writtenColumns(node: DatabaseCall, sourceCode: SourceCode): string[] {
  const use = sqlSentBy(node, sourceCode, /update/i);
  if (use === 'absent') return [];
  if (use) {
    const statement = parseSql(use.sql.text)?.statements.find((s) => s.kind === 'update');
    return statement ? setColumns(statement.tokens) : [];
  }
  if (node.type !== 'CallExpression') return [];
  const values = writtenValues(methodChain(node));
  if (values?.type !== 'ObjectExpression') return [];
  return values.properties.flatMap((p) => (p.type === 'Property' ? [(keyName(p) ?? '').toLowerCase()] : []));
}

/**
 * The unconditional mark, in another function of the file, of one row of the read's table by a
 * key its function is given, that sets the state column the read filtered on; undefined when the
 * read is no helper handing out pending rows, or no such mark is in the file.
 */
export function pairedMark(
  read: PendingRead,
  calls: Iterable<Node>,
  sourceCode: SourceCode,
  vocabulary: ClaimVocabulary,
): RowUpdate | undefined {
  const column = read.statusColumn?.toLowerCase();
  const fn = enclosingFunction(read.node);
  const keys = sourceCode.visitorKeys;
  if (column === undefined || !fn || !handsOutPendingRows(read, fn, sourceCode)) return undefined;
  for (const node of calls) {
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    const markFn = enclosingFunction(node);
    if (!markFn || markFn === fn) continue;
    const update = rowUpdateOf(node, sourceCode, vocabulary);
    if (!update?.changesState || update.conditional || differentTables(read.named, update.table)) continue;
    if (!mentionsAny(node, parameterNames(markFn), keys) || !writtenColumns(node, sourceCode).includes(column)) continue;
    return update;
  }
  return undefined;
}
