// A worker that reads through a data module's helper named for the rows still waiting
// (`await this.orders.findNeedingReview()`, `outbox.findUnsent()`) and marks each row
// through a helper of the same receiver named for marking it done (`await
// this.orders.markReviewDone(row.id)`), when that module cannot be read (a file linted alone,
// a module outside the project): the names are the claim's two halves, as paired-helpers.ts reads
// them in the module itself. A helper the module summaries resolve is judged by its code instead
// (handed-elsewhere.ts), never by its name.
import type { TSESTree } from '@typescript-eslint/utils';
import { projectFunctionOf } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { COUNTS_ROWS, MARK_ROW_HELPER, PENDING_ROWS_HELPER } from '../../src/knowledge/pending-helpers.js';
import type { DatabaseCall, PendingRead, RowUpdate } from './claim-shapes.js';

/** `this.orders.findDue()` → the receiver's text (`this.bookings`), when the call is a member call named by `pattern`. */
function receiverText(call: TSESTree.CallExpression, pattern: RegExp, context: DetectContext): string | undefined {
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (callee.type !== 'MemberExpression' || name === undefined || !pattern.test(name)) return undefined;
  return context.sourceCode.getText(callee.object);
}

/**
 * Whether the helper `call` reaches cannot be read: no project function resolves it, and its
 * receiver comes from outside the file — an injected field (`this.parcels`), an import, a parameter
 * (an object of methods the file declares is read by its code, not by its names).
 */
function outOfReach(call: TSESTree.CallExpression, context: DetectContext): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || projectFunctionOf(context, call.callee) !== undefined) return false;
  const receiver = unwrapExpression(callee.object);
  if (receiver.type === 'MemberExpression') return unwrapExpression(receiver.object).type === 'ThisExpression';
  if (receiver.type !== 'Identifier') return false;
  const definition = scopeVariable(context.sourceCode, receiver)?.defs[0];
  return definition?.type === 'ImportBinding' || definition?.type === 'Parameter';
}

/** Whether a call's method name may be a helper handing out waiting rows (a cheap test before the call is collected). */
export const mayReadPendingThroughHelper = (name: string): boolean => PENDING_ROWS_HELPER.test(name) && !COUNTS_ROWS.test(name);

/** The read a call is when it is an out-of-reach helper named for handing out waiting rows; `undefined` otherwise. */
export function pendingHelperReadOf(node: DatabaseCall, context: DetectContext): PendingRead | undefined {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
  const name = memberPropertyName(node.callee);
  if (name === undefined || !mayReadPendingThroughHelper(name)) return undefined;
  const receiver = receiverText(node, PENDING_ROWS_HELPER, context);
  if (receiver === undefined || !outOfReach(node, context)) return undefined;
  return {
    node,
    kind: 'builder',
    reportNode: node.callee.property,
    loc: undefined,
    table: undefined,
    named: undefined,
    statusColumn: undefined,
  };
}

/**
 * The mark a call makes when the read is such a helper's and the call is an out-of-reach helper of
 * the same receiver named for marking a row done, handed the row (`handsRow`).
 */
export function markByHelperName(
  read: PendingRead,
  call: TSESTree.CallExpression,
  handsRow: (n: TSESTree.Node) => boolean,
  context: DetectContext,
): RowUpdate | undefined {
  if (read.node.type !== 'CallExpression' || read.statusColumn !== undefined || read.table !== undefined) return undefined;
  const readReceiver = receiverText(read.node, PENDING_ROWS_HELPER, context);
  if (readReceiver === undefined || receiverText(call, MARK_ROW_HELPER, context) !== readReceiver) return undefined;
  if (!call.arguments.some((a) => handsRow(a)) || !outOfReach(call, context)) return undefined;
  return { node: call, conditional: false, countChecked: false, changesState: true, table: undefined };
}
