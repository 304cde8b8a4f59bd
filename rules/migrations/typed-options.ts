// TypeORM options built where no DataSource is in sight: an object typed as TypeORM's options
// (`const options: DataSourceOptions = {…}`, `{…} satisfies DataSourceOptions`, the object a
// `getDbConfig(): DataSourceOptions` returns) or one whose `type` is a TypeORM driver
// (`{ type: 'postgres', synchronize: true }`), or one holding a key only TypeORM's options have
// (`{ migrationsRun: true, ...sharedConfig }`) or `synchronize` beside `entities`. It is handed to `new DataSource(…)` in another
// module, so its `synchronize` / `migrationsRun` is decided here.
import { typeReferenceName } from '../../analysis/ast/type-reference-name.js';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  TYPEORM_DRIVER_TYPES,
  TYPEORM_ONLY_OPTION_KEYS,
  TYPEORM_OPTIONS_TYPES,
  TYPEORM_SYNCHRONIZE_COMPANION_KEYS,
} from '../../src/knowledge/typeorm-options.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';

/** Whether a type annotation names TypeORM's options (`DataSourceOptions`, `Promise<DataSourceOptions>`, `Partial<…>`, `A | B`). */
export function namesTypeOrmOptions(type: TSESTree.Node | undefined, depth = 0): boolean {
  if (!type || depth > 3) return false;
  if (type.type === 'TSTypeAnnotation') return namesTypeOrmOptions(type.typeAnnotation, depth);
  if (type.type === 'TSUnionType' || type.type === 'TSIntersectionType') return type.types.some((t) => namesTypeOrmOptions(t, depth + 1));
  if (type.type !== 'TSTypeReference') return false;
  if (TYPEORM_OPTIONS_TYPES.includes(typeReferenceName(type) ?? '')) return true;
  // `Promise<DataSourceOptions>`, `Partial<DataSourceOptions>`
  return (type.typeArguments?.params ?? []).some((t) => namesTypeOrmOptions(t, depth + 1));
}

/** The function a `return` or an arrow's expression body belongs to. */
function returningFunction(node: TSESTree.Node): TSESTree.FunctionLike | undefined {
  const parent = node.parent;
  if (parent?.type === 'ArrowFunctionExpression' && parent.body === node) return parent;
  if (parent?.type !== 'ReturnStatement') return undefined;
  for (let current: TSESTree.Node | undefined = parent.parent; current; current = current.parent) {
    if (current.type === 'ArrowFunctionExpression' || current.type === 'FunctionExpression' || current.type === 'FunctionDeclaration')
      return current;
  }
  return undefined;
}

/** Whether `object` is visibly TypeORM's options by its type, its driver or a key only TypeORM's options have. */
export function isTypeOrmOptionsObject(object: TSESTree.ObjectExpression): boolean {
  const hasDriverOrOwnKey = object.properties.some((property) => {
    if (property.type !== 'Property') return false;
    const key = propertyKeyName(property);
    if (key !== undefined && TYPEORM_ONLY_OPTION_KEYS.includes(key)) return true;
    if (key !== 'type') return false;
    const value = unwrapExpression(property.value);
    return value.type === 'Literal' && typeof value.value === 'string' && TYPEORM_DRIVER_TYPES.includes(value.value);
  });
  if (hasDriverOrOwnKey) return true;
  // `{ type: process.env.DB_TYPE, synchronize: …, entities: […] }`: the pair only TypeORM's options hold.
  const keys = new Set(object.properties.map((p) => (p.type === 'Property' ? propertyKeyName(p) : undefined)));
  if (keys.has('synchronize') && TYPEORM_SYNCHRONIZE_COMPANION_KEYS.some((key) => keys.has(key))) return true;
  // Climb out of wrappers to where the object's type is said.
  let node: TSESTree.Node = object;
  while (node.parent && (node.parent.type === 'TSAsExpression' || node.parent.type === 'TSSatisfiesExpression')) {
    if (namesTypeOrmOptions(node.parent.typeAnnotation)) return true;
    node = node.parent;
  }
  const parent = node.parent;
  if (parent?.type === 'VariableDeclarator' && parent.init === node) return namesTypeOrmOptions(parent.id.typeAnnotation);
  const fn = returningFunction(node);
  return fn !== undefined && namesTypeOrmOptions(fn.returnType);
}
