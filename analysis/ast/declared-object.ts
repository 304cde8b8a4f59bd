// The object literal a name was declared with in a block around it: `const modifier = { $set: {
// lines } }` … `updateOne(filter, modifier)`. Found by walking up from the use through the blocks
// that hold it, looking at the statements before it, so no scope analysis is needed; a `let`, a
// declaration after the use, or one made from anything but an object literal gives null.
import type { TSESTree } from '@typescript-eslint/utils';

/** The `{ … }` a `const` named as `id` was declared with before `id`, in a block around it, or null. */
export function declaredObject(id: TSESTree.Identifier): TSESTree.ObjectExpression | null {
  for (let at: TSESTree.Node = id; at.parent; at = at.parent) {
    const block = at.parent;
    if (block.type !== 'BlockStatement' && block.type !== 'Program') continue;
    for (const statement of block.body) {
      if (statement.range[0] >= id.range[0]) break;
      if (statement.type !== 'VariableDeclaration') continue;
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== 'Identifier' || declarator.id.name !== id.name) continue;
        return statement.kind === 'const' && declarator.init?.type === 'ObjectExpression' ? declarator.init : null;
      }
    }
  }
  return null;
}
