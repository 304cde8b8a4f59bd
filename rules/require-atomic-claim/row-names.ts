// The names a worker binds the rows it read to, and how it uses a statement's result: the row a
// loop acts on (`for (const job of jobs)`), the names a read's result is bound to, whether a
// call mentions them, and whether an update's row count is read.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { chainRoot } from '../../analysis/ast/chain-root.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { wrappingExpression } from '../../analysis/ast/unwrapped-expression.js';
import { MONGO_MODIFIED_COUNT_FIELDS } from '../../src/knowledge/orm-reads-writes.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Node = TSESTree.Node;

export function keyName(property: TSESTree.Property): string | undefined {
  if (property.key.type === 'Identifier' && !property.computed) return property.key.name;
  if (property.key.type === 'Literal' && typeof property.key.value === 'string') return property.key.value;
  return undefined;
}

const MODIFIED_COUNT_FIELDS: ReadonlySet<string> = new Set(MONGO_MODIFIED_COUNT_FIELDS);

/** Whether the update's result is read for how many documents it changed (`const { modifiedCount } = await …`, `(await …).modifiedCount`). */
export function readsModifiedCount(node: Node): boolean {
  const current = wrappingExpression(node);
  const parent = current.parent;
  if (parent?.type === 'MemberExpression' && parent.object === current)
    return !parent.computed && parent.property.type === 'Identifier' && MODIFIED_COUNT_FIELDS.has(parent.property.name);
  return (
    parent?.type === 'VariableDeclarator' &&
    parent.id.type === 'ObjectPattern' &&
    parent.id.properties.some((p) => p.type === 'Property' && MODIFIED_COUNT_FIELDS.has(keyName(p) ?? ''))
  );
}

/** Whether `node` mentions one of `names` (the acted-on row's bindings). */
export function mentionsAny(node: Node, names: readonly string[], keys: Parameters<typeof descendants>[1]): boolean {
  if (names.length === 0) return false;
  for (const n of [node, ...descendants(node, keys)]) if (n.type === 'Identifier' && names.includes(n.name)) return true;
  return false;
}

/** Whether a call's result is used (assigned and read, tested, returned) rather than discarded. */
export function isResultUsed(node: Node, sourceCode: SourceCode): boolean {
  const current = wrappingExpression(node);
  const parent = current.parent;
  if (!parent || parent.type === 'ExpressionStatement') return false;
  if (parent.type === 'VariableDeclarator' && parent.init === current) {
    return sourceCode.getDeclaredVariables(parent).some((v) => v.references.some((r) => r.isRead()));
  }
  return true;
}

/** Names a pattern binds (`row`, `{ rows }`, `[first]`, `{ rows: jobs }`). */
export function patternNames(pattern: Node | null | undefined): string[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) => (p.type === 'RestElement' ? patternNames(p.argument) : patternNames(p.value)));
    case 'ArrayPattern':
      return pattern.elements.flatMap((e) => patternNames(e));
    case 'AssignmentPattern':
      return patternNames(pattern.left);
    case 'RestElement':
      return patternNames(pattern.argument);
    case 'VariableDeclaration':
      return pattern.declarations.flatMap((d) => patternNames(d.id));
    default:
      return [];
  }
}

/** The names the result of a read is bound to (`const { rows } = await pool.query(…)` → `rows`). */
export function resultNames(node: Node): string[] {
  const current = wrappingExpression(node, { members: true });
  const parent = current.parent;
  if (parent?.type === 'VariableDeclarator' && parent.init === current) return patternNames(parent.id);
  if (parent?.type === 'AssignmentExpression' && parent.right === current) return patternNames(parent.left);
  return [];
}

/** The identifier at the root of `rows`, `result.rows`, `(await q).rows`. */
export function rootName(node: Node): string | undefined {
  return chainRoot(node, { unwrap: 'await' })?.name;
}
