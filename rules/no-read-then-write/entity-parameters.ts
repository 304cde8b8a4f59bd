// A method handed an entity its caller loaded (`spendBalance(user: UserEntity, amount)`) holds a
// copy read earlier: a field written back computed from the copy's own value (`{ balance:
// user.balance - amount }`) overwrites whatever another request or replica wrote since the load,
// as a row read in the same function would. Told by the parameter's declared type, named for a
// persisted entity (`UserEntity`, `OrderEntity`); a plain object type or an untyped parameter is not
// taken for a row.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ReadSite } from './model.js';

/** Type names of a persisted entity: the domain-model suffix of repositories and ORMs. */
const ENTITY_TYPE = /^[A-Z]\w*Entity$/;

function typeName(param: TSESTree.Identifier): string | undefined {
  const type = param.typeAnnotation?.typeAnnotation;
  if (type?.type !== 'TSTypeReference') return undefined;
  const name = type.typeName;
  return name.type === 'Identifier' ? name.name : name.type === 'TSQualifiedName' ? name.right.name : undefined;
}

/** The parameters of `fn` typed as a loaded entity, each as the read it stands for. */
export function entityParameterReads(fn: TSESTree.FunctionLike): Array<{ name: string; read: ReadSite }> {
  const out: Array<{ name: string; read: ReadSite }> = [];
  for (const first of fn.params) {
    const param = first.type === 'TSParameterProperty' ? first.parameter : first;
    if (param.type !== 'Identifier' || !ENTITY_TYPE.test(typeName(param) ?? '')) continue;
    const model = typeName(param)!.replace(/Entity$/, '');
    out.push({ name: param.name, read: { candidates: [], node: param, model, locked: false, mutations: [], boundChecks: [] } });
  }
  return out;
}
