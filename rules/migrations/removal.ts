// Facts an `extract-migrations` rewrite needs around a schema-write call: the statement that can
// be removed whole, and the import that becomes unused when it is.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { chainRoot } from '../../analysis/ast/chain-root.js';
import { wrappingExpression } from '../../analysis/ast/unwrapped-expression.js';

/** The statement that is only this expression (`await knex.migrate.latest();`), or undefined. */
export function removableStatement(expression: TSESTree.Node): TSESTree.ExpressionStatement | undefined {
  const node = wrappingExpression(expression);
  return node.parent?.type === 'ExpressionStatement' ? node.parent : undefined;
}

/**
 * The import specifier (or `require` destructuring property / declarator) that binds the callee,
 * when this call is its only use — removing the call leaves it unused.
 */
export function importThatBecomesUnused(callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Node | undefined {
  const id = chainRoot(callee);
  if (!id) return undefined;
  const variable = scopeVariable(sourceCode, id);
  const def = variable?.defs[0];
  if (!variable || !def) return undefined;
  const reads = variable.references.filter((r) => r.isRead());
  if (reads.length !== 1 || reads[0]?.identifier !== id) return undefined;
  if (def.type === 'ImportBinding') return def.node;
  if (def.type === 'Variable' && def.node.type === 'VariableDeclarator') {
    if (def.node.id.type === 'ObjectPattern')
      return (
        def.node.id.properties.find((p) => p.type === 'Property' && p.value.type === 'Identifier' && p.value.name === id.name) ?? def.node
      );
    return def.node;
  }
  return undefined;
}
