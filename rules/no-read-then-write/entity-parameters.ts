// A method handed an entity its caller loaded (`spendBalance(user: UserEntity, amount)`) holds a
// copy read earlier: a field written back computed from the copy's own value (`{ balance:
// user.balance - amount }`) overwrites whatever another request or replica wrote since the load,
// as a row read in the same function would. Told by the parameter's declared type, named for a
// persisted entity (`UserEntity`, `OrderEntity`), or imported from a module that declares rows (an
// entity or model file or folder, Prisma's client: `account: Account` with `Account` from
// `../entities/account.entity`); a plain object type, a DTO or an untyped parameter is not taken for a row.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ReadSite } from './model.js';
import { namesImportedRowType } from './model-imports.js';

/** Type names of a persisted entity: the domain-model suffix of repositories and ORMs. */
const ENTITY_TYPE = /^[A-Z]\w*Entity$/;

function typeName(param: TSESTree.Identifier): string | undefined {
  const type = param.typeAnnotation?.typeAnnotation;
  if (type?.type !== 'TSTypeReference') return undefined;
  const name = type.typeName;
  if (name.type === 'Identifier') return ENTITY_TYPE.test(name.name) || namesImportedRowType(name) ? name.name : undefined;
  return name.type === 'TSQualifiedName' && ENTITY_TYPE.test(name.right.name) ? name.right.name : undefined;
}

/** The parameters of `fn` typed as a loaded entity, each as the read it stands for. */
export function entityParameterReads(fn: TSESTree.FunctionLike): Array<{ name: string; read: ReadSite }> {
  const out: Array<{ name: string; read: ReadSite }> = [];
  for (const first of fn.params) {
    const param = first.type === 'TSParameterProperty' ? first.parameter : first;
    const type = param.type === 'Identifier' ? typeName(param) : undefined;
    if (param.type !== 'Identifier' || type === undefined) continue;
    const model = type.replace(/Entity$/, '');
    out.push({ name: param.name, read: { candidates: [], node: param, model, locked: false, mutations: [], boundChecks: [] } });
  }
  return out;
}
