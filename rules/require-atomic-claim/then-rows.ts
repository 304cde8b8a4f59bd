// Rows a read hands to a `.then` callback instead of a name (`Postcard.findAll({ where: { sent: false }
// }).then((cards) => cards.forEach(…))`): the callback's parameter is the list read, and the
// work on it starts where the callback's body does.
import type { TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { patternNames } from './row-names.js';

/** The callback of a `.then(…)` a read's chain ends with, or `undefined`. */
function thenCallback(read: TSESTree.Node): TSESTree.Node | undefined {
  if (read.type !== 'CallExpression' || read.callee.type !== 'MemberExpression' || read.callee.computed) return undefined;
  if (read.callee.property.type !== 'Identifier' || read.callee.property.name !== 'then') return undefined;
  const callback = read.arguments[0];
  return isFunctionNode(callback) ? callback : undefined;
}

/** The names a read's rows take in its `.then` callback, and where work on them may start: the callback's body. */
export function thenRows(read: TSESTree.Node): { names: string[]; from: number } | undefined {
  const callback = thenCallback(read);
  if (!callback || !isFunctionNode(callback)) return undefined;
  const names = patternNames(callback.params[0]);
  return names.length > 0 ? { names, from: callback.body.range[0] } : undefined;
}
