// What a class's getter gives for `this.name`: the expressions `get name() { … }` returns in the
// class around the member (`get models() { return this.sequelize?.models || {} }`).
import type { TSESTree } from '@typescript-eslint/utils';
import { enclosingClass, fieldName } from './class-fields.js';
import { returnedExpressions } from './returned-expressions.js';

/** The expressions the getter of `this.name` returns in the class around `member`; empty when the class has no such getter. */
export function getterResults(member: TSESTree.MemberExpression): TSESTree.Node[] {
  const name = member.object.type === 'ThisExpression' ? fieldName(member) : undefined;
  const owner = name === undefined ? undefined : enclosingClass(member);
  if (!owner) return [];
  for (const element of owner.body.body) {
    if (element.type !== 'MethodDefinition' || element.kind !== 'get' || element.static) continue;
    if (!element.computed && element.key.type === 'Identifier' && element.key.name === name) return returnedExpressions(element.value);
  }
  return [];
}
