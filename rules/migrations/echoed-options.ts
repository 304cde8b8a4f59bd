// An option copied from the options a function was given (`migrationsRun: options.migrationsRun`
// in a log context or a summary built from a `DataSourceOptions` parameter): it decides nothing,
// it echoes what the caller set. The caller's options object is where the value is decided, and is
// reported there when it turns schema writes on.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Whether a name is a parameter of its function, directly or through one `const` that renames it (`const raw = options as Record<string, unknown>`). */
function isParameter(identifier: TSESTree.Identifier, sourceCode: SourceCode, hops = 0): boolean {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  if (def?.type === 'Parameter') return true;
  if (hops > 0 || def?.type !== 'Variable' || def.node.type !== 'VariableDeclarator' || def.parent?.type !== 'VariableDeclaration')
    return false;
  const init = def.parent.kind === 'const' && def.node.init ? unwrapExpression(def.node.init) : undefined;
  return init?.type === 'Identifier' && isParameter(init, sourceCode, hops + 1);
}

/** Whether `key: value` reads the same key off a parameter of the enclosing function (`synchronize: options.synchronize`). */
export function echoesParameterOption(property: TSESTree.Property, sourceCode: SourceCode): boolean {
  const value = unwrapExpression(property.value);
  if (value.type !== 'MemberExpression' || memberPropertyName(value) !== propertyKeyName(property)) return false;
  const object = unwrapExpression(value.object);
  return object.type === 'Identifier' && isParameter(object, sourceCode);
}
