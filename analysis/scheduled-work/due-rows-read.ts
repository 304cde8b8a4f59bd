// A timer's work that loads the rows due for work and hands each one on: the read goes through the
// project's data-access object by a loader named for due rows (`await this.holds.findOverdue(now)`,
// `await noticeService.listOverdueNotices()`), and a row is handed whole, by a field, or in an object
// built from its fields (`await this.release.execute({ orderId: r.orderId })`, `await process(job.id)`).
// Read by poll-loops.ts (`handsReadRowsOn`): business work on shared rows, whatever the callee is.
import type { TSESTree } from '@typescript-eslint/utils';
import { DATA_ACCESS_OBJECT_NAME } from '../../src/knowledge/database-access.js';
import { DUE_ROW_WORDS, HELPER_OBJECT_WORDS } from '../../src/knowledge/due-rows.js';
import { LOADER_VERBS } from '../../src/knowledge/orm-reads-writes.js';
import { nameWords } from '../ast/name-words.js';
import { memberPropertyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';

/** `await this.orders.findOverdue(now)`, `await invoiceService.listOverdueNotices()`: a data-access object's loader of due rows. */
export function loadsDueRows(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression') return false;
  const words = nameWords(memberPropertyName(callee) ?? '');
  if (!LOADER_VERBS.includes(words[0] ?? '') || !words.slice(1).some((w) => DUE_ROW_WORDS.includes(w))) return false;
  return DATA_ACCESS_OBJECT_NAME.test(receiverName(callee.object) ?? '');
}

/** `await settle(id)`, `await this.billing.settle(id)`: awaited for what it does, its answer dropped, on no bag of helpers if a method. */
function calledForItsEffect(call: TSESTree.CallExpression): boolean {
  const awaited = call.parent?.type === 'AwaitExpression' ? call.parent : undefined;
  if (awaited?.parent?.type !== 'ExpressionStatement') return false;
  const receiver = call.callee.type === 'MemberExpression' ? nameWords(receiverName(call.callee.object) ?? '') : [];
  return !HELPER_OBJECT_WORDS.includes(receiver[receiver.length - 1] ?? '');
}

/**
 * The call a row is handed to: whole (`end(row)`), or by a field (`end(row.id)`, `end(row.owner.id)`) or in
 * an object literal of those (`end({ id: row.id })`) to a call awaited for its effect alone (a data-access
 * object's, a service's or a use case's method, or a function): `const ok = await model.checkLimits(row.id)` reads, and an instance's
 * helpers (`app.helpers.preview(row.id)`) are no data-access object. Undefined when the row is used otherwise.
 */
export function callHandedRow(row: TSESTree.Node): TSESTree.CallExpression | undefined {
  let value: TSESTree.Node = row;
  while (value.parent?.type === 'MemberExpression' && value.parent.object === value && !value.parent.computed) value = value.parent;
  const property = value.parent;
  if (property?.type === 'Property' && property.value === value && property.parent.type === 'ObjectExpression') value = property.parent;
  const call = value.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.some((argument) => argument === value)) return undefined;
  return value === row || calledForItsEffect(call) ? call : undefined;
}
