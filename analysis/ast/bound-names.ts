// The names a declarator's pattern binds.
import type { TSESTree } from '@typescript-eslint/utils';

/** The names a declarator binds: `x`, `[x]`, `{ rowCount }`, `{ count: n }`. */
export function boundNames(id: TSESTree.Node): string[] {
  if (id.type === 'Identifier') return [id.name];
  if (id.type === 'ArrayPattern') return id.elements.flatMap((e) => (e ? boundNames(e) : []));
  if (id.type === 'ObjectPattern') return id.properties.flatMap((p) => (p.type === 'Property' ? boundNames(p.value) : []));
  return [];
}
