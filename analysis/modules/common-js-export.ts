// A module's CommonJS exports (`exports.x = …`, `module.exports = { x }`), and the binding type the
// project-function walk resolves names to.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import type { ProjectModule } from './project-module.js';
import { staticName } from './exporting-statements.js';

/** A value a project module exports, or a top-level binding: what `name` holds there. */
export type Binding =
  | { kind: 'node'; node: TSESTree.Node; module: ProjectModule; name: string }
  | { kind: 'module'; module: ProjectModule }
  | { kind: 'export'; module: ProjectModule; name: string };

export function memberName(node: TSESTree.MemberExpression): string | undefined {
  return node.computed ? (node.property.type === 'Literal' ? staticName(node.property) : undefined) : staticName(node.property);
}

export /** `exports.name = …`, `module.exports.name = …`, `module.exports = { name }` / `= { name: … }`. */
function commonJsExport(module: ProjectModule, statement: TSESTree.ProgramStatement, name: string): Binding | undefined {
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return undefined;
  const { left, right } = statement.expression;
  if (left.type !== 'MemberExpression') return undefined;
  const target = memberName(left);
  const object = left.object;
  const isModuleExports = (node: TSESTree.Node) =>
    node.type === 'MemberExpression' &&
    node.object.type === 'Identifier' &&
    node.object.name === 'module' &&
    memberName(node) === 'exports';
  const isExports = (node: TSESTree.Node) => (node.type === 'Identifier' && node.name === 'exports') || isModuleExports(node);
  const value = unwrapExpression(right);
  if (isExports(object) && target === name) return { kind: 'node', node: value, module, name };
  if (isModuleExports(left) && value.type === 'ObjectExpression') {
    for (const property of value.properties) {
      if (property.type === 'Property' && !property.computed && staticName(property.key) === name) {
        return { kind: 'node', node: unwrapExpression(property.value as TSESTree.Node), module, name };
      }
    }
  }
  if (isModuleExports(left) && name === 'default') return { kind: 'node', node: value, module, name };
  return undefined;
}
