// Field changes made on a loaded entity by a call rather than an assignment: Sequelize and
// Mongoose `entity.set('count', n)` / `entity.set({ count: n })`, and `Object.assign(entity, { count: n })`.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

export interface EntityChangeCall {
  /** The entity changed. */
  entity: TSESTree.Node;
  /** Field and new value pairs (field `null` when the key is not static). */
  changes: { field: string | null; value: TSESTree.Node }[];
}

function pairsOf(first: TSESTree.Node | undefined, second: TSESTree.Node | undefined): EntityChangeCall['changes'] {
  if (first?.type === 'Literal' && typeof first.value === 'string') {
    return second && second.type !== 'SpreadElement' ? [{ field: first.value, value: second }] : [];
  }
  if (first?.type !== 'ObjectExpression') return [];
  return first.properties.flatMap((property) => {
    if (property.type !== 'Property') return [];
    const field = !property.computed && property.key.type === 'Identifier' ? property.key.name : null;
    return [{ field, value: property.value }];
  });
}

/** The entity change `call` makes, when `isLoadedEntity` says its target is a loaded entity. */
export function entityChangeCallOf(
  call: TSESTree.CallExpression,
  isLoadedEntity: (node: TSESTree.Node) => boolean,
): EntityChangeCall | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return null;
  const method = memberPropertyName(callee);
  const [first, second, third] = call.arguments;
  if (method === 'set' && isLoadedEntity(callee.object)) {
    return { entity: callee.object, changes: pairsOf(first, second) };
  }
  const object = unwrapExpression(callee.object);
  if (method === 'assign' && object.type === 'Identifier' && object.name === 'Object' && first && isLoadedEntity(first)) {
    return { entity: first, changes: pairsOf(second, third) };
  }
  return null;
}
