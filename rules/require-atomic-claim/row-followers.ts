// What a worker's loop is asked beyond the updates written in it: whether an update moves the row
// read on by writing its due time again (due-columns.ts), and whether a call hands the row to a
// function of another project module that marks it (handed-elsewhere.ts), or — that module out of
// reach — to a helper named for marking it beside the helper the rows were read through (helper-pairs.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import type { PendingRead, RowUpdate } from './claim-shapes.js';
import { movesDueRow } from './due-columns.js';
import { markInOtherModule } from './handed-elsewhere.js';
import { markByHelperName } from './helper-pairs.js';

export interface RowFollowers {
  /** Whether an update moves the row read on by what it writes. */
  moves: (node: TSESTree.Node) => boolean;
  /** The unsafe mark a call makes in another module's function it hands the row to. */
  elsewhere: (call: TSESTree.CallExpression, handsRow: (n: TSESTree.Node) => boolean) => RowUpdate | undefined;
}

export const NO_FOLLOWERS: RowFollowers = { moves: () => false, elsewhere: () => undefined };

/** The followers of one read, in the linted file's context. */
export function rowFollowers(read: PendingRead, context: DetectContext): RowFollowers {
  return {
    moves: movesDueRow(read, context.sourceCode as never),
    elsewhere: (call, handsRow) => markInOtherModule(context, call, handsRow) ?? markByHelperName(read, call, handsRow, context),
  };
}
