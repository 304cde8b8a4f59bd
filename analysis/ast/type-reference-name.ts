// The name a type annotation's type is written with, its last segment: `Redis`, `RedisClientType<…>`
// → `RedisClientType`, `IORedis.Redis` → `Redis`, `ModelStatic<User>` → `ModelStatic`. Type
// arguments, unions and other type forms name nothing here.
import type { TSESTree } from '@typescript-eslint/utils';

/** The last name of a type reference (through a `: T` annotation), or `undefined` for another type form. */
export function typeReferenceName(node: TSESTree.Node | undefined): string | undefined {
  const type = node?.type === 'TSTypeAnnotation' ? node.typeAnnotation : node;
  if (type?.type !== 'TSTypeReference') return undefined;
  const name = type.typeName;
  if (name.type === 'Identifier') return name.name;
  return name.type === 'TSQualifiedName' ? name.right.name : undefined;
}
