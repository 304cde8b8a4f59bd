// The Program a node belongs to, through its parents (set by ESLint's traversal and by the
// project-module parse): where a per-file index of the module's top level is kept.
import type { TSESTree } from '@typescript-eslint/utils';

/** The Program above `node` (itself when it is one), or undefined for a node outside a parsed tree. */
export function programOf(node: TSESTree.Node): TSESTree.Program | undefined {
  let current: TSESTree.Node | undefined = node;
  while (current && current.type !== 'Program') current = current.parent;
  return current;
}
