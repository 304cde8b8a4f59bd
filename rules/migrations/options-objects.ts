// The object literals an options argument stands for: the literal itself, a `const` initialised
// with one, its spreads, and — for factories like `useFactory` — the objects the function returns.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
const MAX_DEPTH = 4;

export function migrationOptionsObjects(node: TSESTree.Node | undefined, sourceCode: SourceCode, depth = 0): TSESTree.ObjectExpression[] {
  if (!node || depth > MAX_DEPTH) return [];
  const value = unwrapExpression(node);
  if (value.type === 'ObjectExpression') {
    const out = [value];
    for (const property of value.properties) {
      if (property.type === 'SpreadElement') out.push(...migrationOptionsObjects(property.argument, sourceCode, depth + 1));
    }
    return out;
  }
  if (value.type === 'Identifier') {
    const variable = scopeVariable(sourceCode, value);
    const def = variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
    if (def?.type === 'VariableDeclarator' && def.init && def.parent.type === 'VariableDeclaration' && def.parent.kind === 'const') {
      return migrationOptionsObjects(def.init, sourceCode, depth + 1);
    }
    return [];
  }
  if (value.type === 'ConditionalExpression') {
    return [
      ...migrationOptionsObjects(value.consequent, sourceCode, depth + 1),
      ...migrationOptionsObjects(value.alternate, sourceCode, depth + 1),
    ];
  }
  return [];
}

/** The objects returned by the function in `options[factory]` (`useFactory: () => ({ … })`). */
export function migrationFactoryResults(
  options: TSESTree.ObjectExpression,
  factory: string,
  sourceCode: SourceCode,
): TSESTree.ObjectExpression[] {
  const out: TSESTree.ObjectExpression[] = [];
  for (const property of options.properties) {
    if (property.type !== 'Property' || propertyKeyName(property) !== factory) continue;
    const fn = unwrapExpression(property.value);
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') continue;
    for (const returned of returnedExpressions(fn)) out.push(...migrationOptionsObjects(returned, sourceCode));
  }
  return out;
}
