// Where a worker acts on the rows a read returned — the body of a loop over them (`for…of`, a
// `.forEach` / `.map` callback), or the rest of the function for a single row — and where it
// marks them: in that body, or after the loop for the whole batch (`marked-after.ts`). And the
// first update there that moves a row on without a checked conditional transition.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { rowUpdateOf, type ClaimVocabulary, type PendingRead, type RowUpdate } from './claim-shapes.js';
import { collectedNames, derivedNames, mentionsRowsOf } from './marked-after.js';
import type { ActedOn } from './not-a-claim.js';
import { mentionsAny, patternNames, resultNames, rootName } from './row-names.js';
import { differentTables } from './tables.js';
import { updateInHandler } from './handed-row.js';
import { NO_FOLLOWERS, type RowFollowers } from './row-followers.js';
import { elementNames, indexesOver, ITERATING_METHODS } from './loop-rows.js';
import { thenRows } from './then-rows.js';
import { reloadedRowNames } from './reloaded-rows.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Node = TSESTree.Node;

/**
 * Where the rows a read returns are acted on: loop bodies over its result, or the rest of the
 * function; and, after each loop, the rest of the function for a batch marked at the end
 * (`marked-after.ts`).
 */
export function workRegions(read: PendingRead, scope: Node, sourceCode: SourceCode): ActedOn[] {
  const keys = sourceCode.visitorKeys;
  // Rows handed to the read's `.then` callback are acted on inside it (then-rows.ts).
  const handed = thenRows(read.node);
  const bound = handed ? handed.names : resultNames(read.node);
  const after = handed ? handed.from : read.node.range[1];
  const carried = [...bound, ...derivedNames(scope, after, bound, keys), ...reloadedRowNames(scope, after, bound, keys)];
  const iterates = (expression: Node): boolean =>
    (expression.range[0] <= read.node.range[0] && expression.range[1] >= read.node.range[1]) ||
    bound.includes(rootName(expression) ?? '\0');
  const regions: ActedOn[] = [];
  const markedAfter: ActedOn[] = [];
  const actedOn = (region: Node, names: string[], loop: Node): void => {
    regions.push({ region, names, loop, after });
    const marks = [...carried, ...collectedNames(region, names, keys)];
    markedAfter.push({ region: scope, names: [...names, ...marks], loop, after, updatesFrom: loop.range[1], marks });
  };
  for (const node of descendants(scope, keys)) {
    if (node.range[1] <= read.node.range[0]) continue;
    if (node.type === 'ForOfStatement' && iterates(node.right)) {
      actedOn(node.body, patternNames(node.left), node);
    } else if (node.type === 'ForStatement' && indexesOver(node.test, iterates)) {
      // `for (let i = 0; i < jobs.length; i++) { const job = jobs[i]; … }`: the row is `jobs[i]`.
      actedOn(node.body, [...bound, ...elementNames(node.body, bound)], node);
    } else if (
      node.type === 'CallExpression' &&
      node.callee.type === 'MemberExpression' &&
      !node.callee.computed &&
      node.callee.property.type === 'Identifier'
    ) {
      const callback = node.arguments[0];
      if (ITERATING_METHODS.has(node.callee.property.name) && isFunctionNode(callback) && iterates(node.callee.object)) {
        actedOn(callback.body, patternNames(callback.params[0]), node);
      }
    }
  }
  if (regions.length === 0 && bound.length > 0) regions.push({ region: scope, names: carried, loop: undefined, after });
  return [...regions, ...markedAfter];
}

/**
 * The first update in `region` that marks an acted-on row of the table read (`readTable`) without a
 * checked conditional transition; `follow` tells an update that moves the row on by what it writes,
 * and a mark made in another module's function the row is handed to.
 */
export function unsafeUpdateIn(...args: Parameters<typeof unsafeUpdatesIn>): RowUpdate | undefined {
  for (const update of unsafeUpdatesIn(...args)) return update;
  return undefined;
}

/** Each such update in `region`, in source order (the report spans to the last: mark-span.ts). */
export function* unsafeUpdatesIn(
  region: ActedOn,
  sourceCode: SourceCode,
  vocabulary: ClaimVocabulary,
  readTable?: string,
  follow: RowFollowers = NO_FOLLOWERS,
): Generator<RowUpdate, undefined> {
  const from = region.updatesFrom ?? region.after;
  const keys = sourceCode.visitorKeys;
  const marksRow = (node: Node): boolean =>
    region.marks ? mentionsRowsOf(node, region.marks, keys) : mentionsAny(node, region.names, keys);
  for (const node of [region.region, ...descendants(region.region, keys)]) {
    if ((node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') || node.range[0] < from) continue;
    const direct = rowUpdateOf(node, sourceCode, vocabulary);
    // The row handed to a same-file handler that marks it (`await processJob(job.id)`), or to another module's function (row-followers.ts).
    const handed = node.type === 'CallExpression' && marksRow(node) ? node : undefined;
    const update =
      direct ??
      (handed &&
        (updateInHandler(handed, marksRow, sourceCode, vocabulary, readTable, follow.moves) ?? follow.elsewhere(handed, marksRow)));
    // A due time written again moves the row on too (due-columns.ts).
    if (!update || !(update.changesState || (update === direct && follow.moves(node))) || !marksRow(node)) continue;
    // Rows of another table keyed by the rows read (`incidents.monitorId IN ids`) are not the rows read;
    // a row read written by itself (`run.update({ status: 'running' })`) is of the table read.
    if (differentTables(readTable, update.table) && !writtenByItself(node, region.names)) continue;
    if (!(update.conditional && update.countChecked)) yield update;
  }
  return undefined;
}

/** `run.update({ … })`: a method called on the acted-on row itself (a Sequelize instance), not on a model or a connection. */
function writtenByItself(node: Node, names: readonly string[]): boolean {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false;
  const receiver = node.callee.object;
  return receiver.type === 'Identifier' && names.includes(receiver.name);
}
