// Every environment variable a file reads by name, through any form of `process.env` access:
// `process.env.X`, `process.env['X']`, `const { X } = process.env`, `const env = process.env;
// env.X`, `import { env } from 'node:process'`, `globalThis.process.env.X`.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { importedReferences } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';

export interface EnvRead {
  name: string;
  /** `process.env.X` (MemberExpression) or the `X` property of a destructuring pattern. */
  node: TSESTree.Node;
}

type SourceCode = Readonly<TSESLint.SourceCode>;

function readsFromEnvObject(envNode: TSESTree.Node, sourceCode: SourceCode, out: EnvRead[], depth: number): void {
  if (depth > 3) return;
  let node: TSESTree.Node = envNode;
  while (
    node.parent &&
    (node.parent.type === 'TSAsExpression' || node.parent.type === 'TSNonNullExpression' || node.parent.type === 'ChainExpression')
  )
    node = node.parent;
  const parent = node.parent;
  if (!parent) return;
  if (parent.type === 'MemberExpression' && parent.object === node) {
    const name = memberPropertyName(parent);
    if (name) out.push({ name, node: parent });
    return;
  }
  if (parent.type === 'VariableDeclarator' && parent.init === node) {
    if (parent.id.type === 'ObjectPattern') {
      for (const property of parent.id.properties) {
        const name = property.type === 'Property' ? propertyKeyName(property) : undefined;
        if (name) out.push({ name, node: property });
      }
    } else if (parent.id.type === 'Identifier') {
      readsFromVariable(parent.id, sourceCode, out, depth + 1);
    }
  }
}

function readsFromVariable(id: TSESTree.Identifier, sourceCode: SourceCode, out: EnvRead[], depth: number): void {
  const variable = scopeVariable(sourceCode, id);
  for (const reference of variable?.references ?? [])
    if (reference.isRead()) readsFromEnvObject(reference.identifier, sourceCode, out, depth);
}

export function migrationEnvReads(context: DetectContext): EnvRead[] {
  const out: EnvRead[] = [];
  const refs = importedReferences(context, [
    { modules: [null], path: ['process', 'env'], kind: 'read', entry: 'global' },
    { modules: ['process', 'node:process'], path: ['env'], kind: 'read', entry: 'import' },
  ]);
  for (const ref of refs) {
    const node = unwrapExpression(ref.node);
    // An ESM import is reported at its specifier: follow the local binding.
    if (node.type === 'ImportSpecifier') readsFromVariable(node.local, context.sourceCode, out, 0);
    else readsFromEnvObject(ref.node, context.sourceCode, out, 0);
  }
  return out;
}
