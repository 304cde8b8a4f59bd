// A worker that reads through a data module's helper named for the rows still waiting
// (`await this.orders.findNeedingReview()`, `outbox.findUnsent()`) and marks each row
// through a helper of the same receiver named for marking it done (`await
// this.orders.markReviewDone(row.id)`), when that module cannot be read (a file linted alone,
// a module outside the project): the names are the claim's two halves, as paired-helpers.ts reads
// them in the module itself. A helper the module summaries resolve is judged by its code instead
// (handed-elsewhere.ts), never by its name. The same for two functions the file imports from one
// project module (`const { getParcels, flagParcelsShipped } = require('./repositories/outbox.repository')`):
// the module is the receiver, and one named for a queue (`outbox`, `jobs`) lets any read verb
// (`getParcels()`) hand out its waiting rows.
import type { TSESTree } from '@typescript-eslint/utils';
import { projectFunctionOf } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { COUNTS_ROWS, MARK_ROW_HELPER, PENDING_ROWS_HELPER } from '../../src/knowledge/pending-helpers.js';
import { isQueueLikeTable } from '../../src/knowledge/sql.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import type { DatabaseCall, PendingRead, RowUpdate } from './claim-shapes.js';

/** A relative module a plain call's name is bound to at the file's top (an import or a `require`), when the name is not shadowed. */
function importedFrom(call: TSESTree.CallExpression, context: DetectContext): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'Identifier') return undefined;
  const specifier = moduleBindings(context.sourceCode.ast).get(callee.name);
  const scope = scopeVariable(context.sourceCode, callee)?.scope.type;
  return specifier?.startsWith('.') && (scope === 'module' || scope === 'global') ? specifier : undefined;
}

/**
 * `this.orders.findDue()` → the receiver's text (`this.bookings`), when the call is a member call named by `pattern`;
 * `getParcels()` imported from a project module → that module.
 */
function receiverText(call: TSESTree.CallExpression, pattern: RegExp, context: DetectContext): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') return pattern.test(callee.name) ? importedFrom(call, context) : undefined;
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (callee.type !== 'MemberExpression' || name === undefined || !pattern.test(name)) return undefined;
  return context.sourceCode.getText(callee.object);
}

/** A read verb a queue module's function is named with (`getParcels`, `findAll`). */
const READ_VERB = /^(?:find|list|get|fetch|load|select|query)[A-Z]/;
/** Whether a plain callee's name may read through an imported helper: a cheap test, the rest asked of each call. */
export const mayBeImportedRead = (name: string): boolean => READ_VERB.test(name);

/** Whether a module specifier names a work queue (`../repositories/outbox.repository`, `./jobs`). */
const namesQueue = (specifier: string): boolean =>
  (specifier.split('/').pop() ?? '').split(/[.\-_]/).some((w) => w !== '' && isQueueLikeTable(w));

/**
 * Whether the helper `call` reaches cannot be read: no project function resolves it, and its
 * receiver comes from outside the file — an injected field (`this.parcels`), an import, a parameter
 * (an object of methods the file declares is read by its code, not by its names).
 */
function outOfReach(call: TSESTree.CallExpression, context: DetectContext): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier')
    return importedFrom(call, context) !== undefined && projectFunctionOf(context, call.callee) === undefined;
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
  if (node.type !== 'CallExpression') return undefined;
  const callee = node.callee;
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : callee.type === 'Identifier' ? callee.name : undefined;
  if (name === undefined || COUNTS_ROWS.test(name)) return undefined;
  const module = callee.type === 'Identifier' ? importedFrom(node, context) : undefined;
  const pattern = module !== undefined && namesQueue(module) ? READ_VERB : PENDING_ROWS_HELPER;
  const receiver = receiverText(node, pattern, context);
  if (receiver === undefined || !outOfReach(node, context)) return undefined;
  return {
    node,
    kind: 'builder',
    reportNode: callee.type === 'MemberExpression' ? callee.property : callee,
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
  const readReceiver = receiverText(read.node, read.node.callee.type === 'Identifier' ? READ_VERB : PENDING_ROWS_HELPER, context);
  if (readReceiver === undefined || receiverText(call, MARK_ROW_HELPER, context) !== readReceiver) return undefined;
  if (!call.arguments.some((a) => handsRow(a)) || !outOfReach(call, context)) return undefined;
  return { node: call, conditional: false, countChecked: false, changesState: true, table: undefined };
}
