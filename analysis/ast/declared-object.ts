// What a name was declared with in a block around it: `const modifier = { $set: { lines } }` …
// `updateOne(filter, modifier)`, `const query = new Parse.Query('Wallet')` … `query.first()`.
// Found by walking up from the use through the blocks that hold it, looking at the statements
// before it, so no scope analysis is needed; a `let`, or a declaration after the use, gives null.
import type { TSESTree } from '@typescript-eslint/utils';

/** The value a `const` named as `id` was declared with before `id`, in a block around it, or null. */
export function declaredValue(id: TSESTree.Identifier): TSESTree.Expression | null {
  for (let at: TSESTree.Node = id; at.parent; at = at.parent) {
    const block = at.parent;
    if (block.type !== 'BlockStatement' && block.type !== 'Program') continue;
    for (const statement of block.body) {
      if (statement.range[0] >= id.range[0]) break;
      if (statement.type !== 'VariableDeclaration') continue;
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== 'Identifier' || declarator.id.name !== id.name) continue;
        return statement.kind === 'const' ? declarator.init : null;
      }
    }
  }
  return null;
}

/** The `{ … }` a `const` named as `id` was declared with before `id`, in a block around it, or null. */
export function declaredObject(id: TSESTree.Identifier): TSESTree.ObjectExpression | null {
  const value = declaredValue(id);
  return value?.type === 'ObjectExpression' ? value : null;
}
