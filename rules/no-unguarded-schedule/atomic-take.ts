// A poll loop that takes each item atomically before it runs it: the pass begins by taking one
// document with a call that removes or marks it in the same step (`findOneAndDelete(filter)`, or
// `findOneAndUpdate(filter, { $set: { state: 'taken' } })` setting a field the filter tests), in
// the loop or in a function of this file it calls, and leaves the pass when nothing came back:
//   while (this.running) { const job = await this.takeNext(); if (!job) { await sleep(ms); continue; } … }
// Two replicas polling the same collection never get the same document: the take is the claim.
// A `findOne` then a `deleteOne`, or an update that leaves the filter's fields alone, claims nothing.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { ATOMIC_TAKE_DELETES, ATOMIC_TAKE_UPDATES, SET_OPERATOR } from '../../src/knowledge/item-claims.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { gatedValue } from '../../analysis/scheduled-work/exit-tests.js';
import { resolveCallee } from '../../analysis/scheduled-work/external-effects.js';
import { valueOf } from '../../analysis/scheduled-work/in-memory-values.js';

/** The keys of an object literal (or of a `const` holding one), `undefined` when it is not one. */
function objectKeys(sourceCode: SourceCode, node: TSESTree.Node | undefined): string[] | undefined {
  const value = node && unwrapExpression(node);
  const object = value?.type === 'Identifier' ? valueOf(sourceCode, value) : value;
  if (object?.type !== 'ObjectExpression') return undefined;
  return object.properties.flatMap((p) => (p.type === 'Property' ? [propertyKeyName(p) ?? ''] : []));
}

/** The fields an update sets: those of its `$set`, or of a plain replacement (no operator). */
function setFields(sourceCode: SourceCode, update: TSESTree.Node | undefined): string[] {
  const value = update && unwrapExpression(update);
  const object = value?.type === 'Identifier' ? valueOf(sourceCode, value) : value;
  if (object?.type !== 'ObjectExpression') return [];
  const set = object.properties.find((p) => p.type === 'Property' && propertyKeyName(p) === SET_OPERATOR);
  if (set?.type === 'Property') return objectKeys(sourceCode, set.value) ?? [];
  const keys = objectKeys(sourceCode, object) ?? [];
  return keys.some((k) => k.startsWith('$')) ? [] : keys;
}

/** `coll.findOneAndDelete(filter)`, or `coll.findOneAndUpdate(filter, update)` whose update sets a field the filter tests. */
function isAtomicTake(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const method = call.callee.type === 'MemberExpression' ? memberPropertyName(call.callee) : undefined;
  if (method === undefined || call.arguments.length === 0) return false;
  if (ATOMIC_TAKE_DELETES.includes(method)) return true;
  if (!ATOMIC_TAKE_UPDATES.includes(method)) return false;
  const tested = objectKeys(sourceCode, call.arguments[0]) ?? [];
  return setFields(sourceCode, call.arguments[1]).some((field) => tested.includes(field));
}

/** The call takes an item atomically, itself or in the body of the function of this file it runs. */
function takesAtomically(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  if (isAtomicTake(sourceCode, call)) return true;
  const fn = resolveCallee(sourceCode, call);
  if (!fn) return false;
  for (const node of descendants(fn.body, sourceCode.visitorKeys))
    if (node.type === 'CallExpression' && isAtomicTake(sourceCode, node)) return true;
  return false;
}

/** The statements a pass begins with: the loop body's, or those of the `try` it is wrapped in. */
function passStatements(body: TSESTree.BlockStatement): readonly TSESTree.Statement[] {
  const first = body.body[0];
  return body.body.length === 1 && first?.type === 'TryStatement' ? first.block.body : body.body;
}

/** Whether each pass of the poll loop with `body` begins by taking its item atomically, leaving when none came back. */
export function takesEachItemAtomically(sourceCode: SourceCode, body: TSESTree.BlockStatement): boolean {
  const [first, next] = passStatements(body);
  const value = first && gatedValue(first, next);
  const taken = value && unwrapExpression(value, { await: true });
  return taken?.type === 'CallExpression' && takesAtomically(sourceCode, taken);
}
