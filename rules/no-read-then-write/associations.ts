// A row of an association loaded with its parent (`Order.findByPk(id, { include: ['coupon'] })`,
// then `const { coupon } = order` or `order.coupon`) is a loaded row of its own: a field changed
// from its own value and saved with `coupon.save()` writes the copy back over what another request
// wrote since the load. Only its own save counts (a document's other methods are not guessed at),
// and not for a result a helper out of reach was only taken for a loader by its name.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import type { Taint } from './model.js';

/** Whether `node`, a field of a loaded row (`t`), is the receiver of its own `save()`. */
export function savesAssociation(node: TSESTree.Node, t: Taint): boolean {
  if (t.computed || t.field === null || t.read.guessed || t.read.many) return false;
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') return false;
  const member = node.parent;
  return (
    member?.type === 'MemberExpression' &&
    member.object === node &&
    memberPropertyName(member) === 'save' &&
    member.parent?.type === 'CallExpression'
  );
}
