// The object literals an options argument stands for: the literal itself, a `const` initialised
// with one, its spreads, and — for factories like `useFactory` — the objects the function returns.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable } from '@eslint-community/eslint-utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';

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
    const variable = findVariable(sourceCode.getScope(value) as never, value) as { defs: Array<{ node: TSESTree.Node }> } | null;
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
    if (fn.body.type !== 'BlockStatement') {
      out.push(...migrationOptionsObjects(fn.body, sourceCode));
      continue;
    }
    for (const ret of returnStatements(fn.body)) out.push(...migrationOptionsObjects(ret.argument ?? undefined, sourceCode));
  }
  return out;
}

/** `return` statements of a function body, not of functions nested in it. */
function returnStatements(body: TSESTree.BlockStatement): TSESTree.ReturnStatement[] {
  const out: TSESTree.ReturnStatement[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node.type === 'ReturnStatement') {
      out.push(node);
      return;
    }
    if (
      node.type === 'FunctionDeclaration' ||
      node.type === 'FunctionExpression' ||
      node.type === 'ArrowFunctionExpression' ||
      node.type === 'ClassBody'
    )
      return;
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const child = node[key] as unknown;
      if (Array.isArray(child)) for (const c of child) if (c && typeof (c as TSESTree.Node).type === 'string') visit(c as TSESTree.Node);
      if (child && typeof (child as TSESTree.Node).type === 'string') visit(child as TSESTree.Node);
    }
  };
  for (const statement of body.body) visit(statement);
  return out;
}
