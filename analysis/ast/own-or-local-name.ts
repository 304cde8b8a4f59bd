// The name a value goes by when it is a variable of the code or a field of its instance: `db` of
// `db`, `pool` of `this.pool` — not a member of any other object, whose name is that object's.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './property-names.js';

/** `db` → `db`, `this.pool` → `pool`; anything else: undefined. */
export function ownOrLocalName(node: TSESTree.Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  return node.type === 'MemberExpression' && node.object.type === 'ThisExpression' ? memberPropertyName(node) : undefined;
}
