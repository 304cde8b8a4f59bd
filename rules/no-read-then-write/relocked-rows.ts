// A loaded row read again under a row lock inside a transaction (Sequelize `row.reload({ transaction,
// lock: true })`, `lock: t.LOCK.UPDATE`): the reload gives it the stored values, and no other
// transaction changes the row until the commit, so what is written back from it afterwards in that
// transaction loses nothing. A reload without the lock, or without the transaction (its lock ends
// with its own statement), changes nothing.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { Taint } from './model.js';
import { hasLockOption } from './read-site.js';

/** Whether the options object `node` names the transaction the call runs in (`{ transaction }`, `{ transaction: t }`). */
const namesTransaction = (node: TSESTree.Node): boolean =>
  node.type === 'ObjectExpression' && node.properties.some((p) => p.type === 'Property' && propertyKeyName(p) === 'transaction');

/** When `call` reloads a loaded row whole under a lock in a transaction, marks its read locked; answers whether it did. */
export function relockedRow(call: TSESTree.CallExpression, taintOf: (node: TSESTree.Node) => Taint | null): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || memberPropertyName(callee) !== 'reload') return false;
  if (!call.arguments.some(namesTransaction) || !hasLockOption(call)) return false;
  const row = taintOf(callee.object);
  if (!row || row.field !== null || row.computed) return false;
  row.read.locked = true;
  return true;
}
