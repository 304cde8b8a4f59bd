// A read of the rows whose due time has come (`renewAt: { lte: now }`, `[Op.lt]: new Date()`,
// `LessThanOrEqual(now)`) hands out work by that time: an update that writes the due time again
// (`data: { renewAt: nextMonth }`) moves the row to its next turn, out of the read's filter, as
// surely as a new status does. Two replicas that read the row before either moved it both do the
// turn's work (two renewals, two charges) — so such an update marks the row, whatever its values.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import type { PendingRead } from './claim-shapes.js';
import { isBeforeBound } from './filter-marks.js';
import { writtenColumns } from './paired-helpers.js';
import { keyName } from './row-names.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The columns a builder read compares as "before" a bound (its due times), lower-cased. */
function dueColumns(read: PendingRead, sourceCode: SourceCode): string[] {
  if (read.kind !== 'builder') return [];
  const columns: string[] = [];
  for (const node of descendants(read.node, sourceCode.visitorKeys, (n) => n.type === 'BlockStatement')) {
    if (node.type !== 'Property' || !isBeforeBound(node.value)) continue;
    const key = keyName(node);
    if (key !== undefined) columns.push(key.toLowerCase());
  }
  return columns;
}

/** Per read: whether an update writes one of its due times. */
const movers = new WeakMap<PendingRead, (node: TSESTree.Node) => boolean>();

/** Whether an update (`node`) writes a due time the read compared as "before" a bound: it moves the row read on. */
export function movesDueRow(read: PendingRead, sourceCode: SourceCode): (node: TSESTree.Node) => boolean {
  let moves = movers.get(read);
  if (moves) return moves;
  let due: string[] | undefined;
  moves = (node) => {
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') return false;
    due ??= dueColumns(read, sourceCode);
    return due.length > 0 && writtenColumns(node, sourceCode).some((c) => due!.includes(c));
  };
  movers.set(read, moves);
  return moves;
}
