// A prune: rows read (`findMany({ where: { state: 'active' }, orderBy })`), the ones to drop worked
// out in memory (all past the top N, the stale ones), and one delete of them — nothing awaited
// between the read and the delete, and nothing after it but the delete's own result. No row is
// acted on, so two replicas running it delete the same rows twice: the second delete finds them
// gone. A delete in a loop, any awaited work around it, or the rows (or the ids deleted) used after
// it — handed back to a caller that acts on them, a queue popped — stays a claim.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { methodChain } from '../../analysis/sql/method-chain.js';
import { DELETE_METHODS, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { resultNames } from './row-names.js';

type Node = TSESTree.Node;
type Keys = Parameters<typeof descendants>[1];

/** An identifier used as a value: not a property's key or a member's name. */
const isValueName = (n: Node): n is TSESTree.Identifier =>
  n.type === 'Identifier' &&
  !(n.parent?.type === 'Property' && n.parent.key === n && !n.parent.computed) &&
  !(n.parent?.type === 'MemberExpression' && n.parent.property === n && !n.parent.computed);

/** The names a delete's arguments use (`toDelete` in `{ where: { id: { in: toDelete } } }`). */
const argumentNames = (call: TSESTree.CallExpression, keys: Keys): string[] =>
  call.arguments.flatMap((arg) => [arg, ...descendants(arg, keys)]).flatMap((n) => (isValueName(n) ? [n.name] : []));

/** Whether `update`, after the rows `read` returned, is a prune: one delete, the only awaited work, and nothing of the rows used after it. */
export function prunesOnly(read: PendingRead, update: DatabaseCall, loop: Node | undefined, scope: Node, keys: Keys): boolean {
  if (update.type !== 'CallExpression' || (loop && update.range[0] < loop.range[1])) return false;
  if (!methodChain(update).some((link) => link.name !== undefined && DELETE_METHODS.has(link.name))) return false;
  const rows = new Set([...resultNames(read.node), ...argumentNames(update, keys)]);
  for (const node of descendants(scope, keys)) {
    if (node.range[0] < read.node.range[1] || (node.range[0] >= update.range[0] && node.range[1] <= update.range[1])) continue;
    if (node.type === 'AwaitExpression' && node.argument !== update) return false;
    if (node.range[0] >= update.range[1] && isValueName(node) && rows.has(node.name)) return false;
  }
  return true;
}
