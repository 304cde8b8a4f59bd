// Which top-level statements of a module can export a name, indexed once per parsed module: a
// lookup of one export (project-functions.ts) reads only those statements, in their order, instead
// of scanning every statement of the module (a bundle or a barrel holds thousands) per question.
// The index may name a statement that does not export the name (the lookup asks each one as
// before); it never leaves out one that does, so every answer is the scan's.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../ast/unwrapped-expression.js';

export interface ExportingStatements {
  /** The statements that may export each name, in source order. */
  byName: Map<string, TSESTree.ProgramStatement[]>;
  /** The sources of `export * from …`, in source order. */
  stars: string[];
}

const indexes = new WeakMap<TSESTree.Program, ExportingStatements>();

/** A key's or name's text: an identifier, a `#private` name, a string literal. */
export function staticName(node: TSESTree.Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'PrivateIdentifier') return `#${node.name}`;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

/** The names a statement may export: its declarations, its export list, a CommonJS assignment's target and keys. */
function exportedNames(statement: TSESTree.ProgramStatement): string[] {
  if (statement.type === 'ExportDefaultDeclaration') return ['default'];
  if (statement.type === 'ExportNamedDeclaration') {
    const names: string[] = [];
    const declaration = statement.declaration;
    if (
      declaration?.type === 'FunctionDeclaration' ||
      declaration?.type === 'ClassDeclaration' ||
      declaration?.type === 'TSDeclareFunction'
    ) {
      if (declaration.id) names.push(declaration.id.name);
    }
    if (declaration?.type === 'VariableDeclaration') {
      for (const declarator of declaration.declarations) if (declarator.id.type === 'Identifier') names.push(declarator.id.name);
    }
    for (const specifier of statement.specifiers) {
      const name = specifier.type === 'ExportSpecifier' ? staticName(specifier.exported) : undefined;
      if (name !== undefined) names.push(name);
    }
    return names;
  }
  // `exports.x = …`, `module.exports.x = …`, `module.exports = { x }` (and `default` for any `module.exports = …`).
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return [];
  const left = statement.expression.left;
  if (left.type !== 'MemberExpression') return [];
  const names = ['default'];
  const target = left.computed ? (left.property.type === 'Literal' ? staticName(left.property) : undefined) : staticName(left.property);
  if (target !== undefined) names.push(target);
  const value = unwrapExpression(statement.expression.right);
  if (value.type === 'ObjectExpression') {
    for (const property of value.properties) {
      const key = property.type === 'Property' && !property.computed ? staticName(property.key) : undefined;
      if (key !== undefined) names.push(key);
    }
  }
  return names;
}

/** The statements of `program` that may export each name, and its star re-exports. */
export function exportingStatements(program: TSESTree.Program): ExportingStatements {
  let index = indexes.get(program);
  if (index) return index;
  index = { byName: new Map(), stars: [] };
  for (const statement of program.body) {
    if (statement.type === 'ExportAllDeclaration' && statement.exported === null) index.stars.push(statement.source.value);
    for (const name of new Set(exportedNames(statement))) {
      const statements = index.byName.get(name);
      if (statements) statements.push(statement);
      else index.byName.set(name, [statement]);
    }
  }
  indexes.set(program, index);
  return index;
}
