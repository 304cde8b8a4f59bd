// A handle whose type is libSQL's client (`const sqlite = container.resolve<Client>(…)` with
// `Client` from `@libsql/client`, `db: Client`): libSQL may be a server every replica shares, so
// the type says more than a name that holds `sqlite` (embedded-by-name.ts).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { LIBSQL_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The first name a type reference is spelt with (`Client`, `libsql` of `libsql.Client`). */
function firstTypeName(type: TSESTree.Node | undefined): string | undefined {
  const reference = type?.type === 'TSTypeAnnotation' ? type.typeAnnotation : type;
  if (reference?.type !== 'TSTypeReference') return undefined;
  let name: TSESTree.EntityName = reference.typeName;
  while (name.type === 'TSQualifiedName') name = name.left;
  return name.type === 'Identifier' ? name.name : undefined;
}

/** Whether a name is declared with libSQL's client type, or given by a call typed with it (`resolve<Client>(…)`). */
export function typedAsLibsqlClient(identifier: TSESTree.Identifier, init: TSESTree.Node | undefined, sourceCode: SourceCode): boolean {
  const bindings = moduleBindings(sourceCode.ast as TSESTree.Program);
  const isLibsql = (type: TSESTree.Node | undefined): boolean => {
    const name = firstTypeName(type);
    const specifier = name === undefined ? undefined : bindings.get(name);
    return specifier !== undefined && LIBSQL_CLIENT_MODULES.includes(specifier);
  };
  const declared = scopeVariable(sourceCode, identifier)?.defs[0]?.name;
  if (declared?.type === 'Identifier' && isLibsql(declared.typeAnnotation)) return true;
  const value = init && unwrapExpression(init, { await: true });
  return (value?.type === 'CallExpression' || value?.type === 'NewExpression') && (value.typeArguments?.params ?? []).some(isLibsql);
}
