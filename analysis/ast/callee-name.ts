// The name a call is known by, whatever wraps its callee.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from './unwrapped-expression.js';
import { memberPropertyName } from './property-names.js';

/** The callee's identifier, or the property of a member callee (`a.b['name']`), through parentheses and `!`/`as`. */
export function calleeName(call: TSESTree.CallExpression): string | undefined {
  const callee = unwrapExpression(call.callee);
  return callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
}
