// Text edits that take pieces out of a file without leaving it broken: an object property with its
// comma, an import specifier (or the whole import when it was the last), a require binding.
import type { TSESTree } from '@typescript-eslint/utils';
import { removalEdit } from '../../engine/statements.js';
import type { TextEdit } from '../../engine/transform.js';

/** Removes the property and its comma; the whole line when it stands alone on one. */
export function propertyRemovalEdit(text: string, property: TSESTree.Node, siblings: readonly TSESTree.Node[]): TextEdit {
  const lineStart = text.lastIndexOf('\n', property.range[0] - 1) + 1;
  let lineEnd = text.indexOf('\n', property.range[1]);
  if (lineEnd === -1) lineEnd = text.length;
  if (/^[ \t]*$/.test(text.slice(lineStart, property.range[0])) && /^[ \t]*,?[ \t\r]*$/.test(text.slice(property.range[1], lineEnd))) {
    return { start: lineStart, end: Math.min(lineEnd + 1, text.length), text: '' };
  }
  const index = siblings.indexOf(property);
  const next = siblings[index + 1];
  if (next) return { start: property.range[0], end: next.range[0], text: '' };
  const previous = siblings[index - 1];
  if (previous) return { start: previous.range[1], end: property.range[1], text: '' };
  return { start: property.range[0], end: property.range[1], text: '' };
}

/**
 * Edits that remove unused bindings: import specifiers / default / namespace, require
 * declarators or destructured properties. Several from one declaration are removed together, and
 * the declaration goes when nothing is left in it.
 */
export function bindingRemovalEdits(text: string, bindings: ReadonlySet<TSESTree.Node>): TextEdit[] {
  const edits: TextEdit[] = [];
  const byOwner = new Map<TSESTree.Node, TSESTree.Node[]>();
  for (const binding of bindings) {
    const owner = binding.type === 'Property' ? binding.parent : binding.parent;
    if (!owner) continue;
    const list = byOwner.get(owner) ?? [];
    list.push(binding);
    byOwner.set(owner, list);
  }
  for (const [owner, removed] of byOwner) {
    if (owner.type === 'ImportDeclaration') {
      if (removed.length === owner.specifiers.length) {
        edits.push(removalEdit(text, owner));
        continue;
      }
      const named = owner.specifiers.filter((s) => s.type === 'ImportSpecifier');
      const namedLeft = named.filter((s) => !removed.includes(s));
      if (namedLeft.length === 0 && named.length > 0) {
        // `import a, { b } from 'x'` → `import a from 'x'`.
        const close = text.indexOf('}', named[named.length - 1]!.range[1]);
        const defaultSpecifier = owner.specifiers.find((s) => s.type !== 'ImportSpecifier')!;
        edits.push({ start: defaultSpecifier.range[1], end: close + 1, text: '' });
        continue;
      }
      for (const specifier of removed) edits.push(propertyRemovalEdit(text, specifier, owner.specifiers));
      continue;
    }
    if (owner.type === 'ObjectPattern') {
      const declarator = owner.parent;
      const declaration = declarator?.parent;
      if (
        removed.length === owner.properties.length &&
        declaration?.type === 'VariableDeclaration' &&
        declaration.declarations.length === 1
      ) {
        edits.push(removalEdit(text, declaration));
        continue;
      }
      for (const property of removed) edits.push(propertyRemovalEdit(text, property, owner.properties));
      continue;
    }
    if (owner.type === 'VariableDeclaration' && owner.declarations.length === removed.length) edits.push(removalEdit(text, owner));
  }
  return edits;
}
