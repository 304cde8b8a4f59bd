// Rows of a list read put in a `Map` by their key (`new Map(products.map((p) => [p.id, p]))`): what
// `.get(key)` hands back is one of those loaded rows, changed and saved like any other. Only its
// own changes are followed: a bound checked on a row looked up by key (`if (map.get(id).stock < n)
// throw`, often a loop of checks apart from the writes) is not tied to a later write.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ReadSite } from './model.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

/** What a callback returns: its expression body, or the argument of a block's only `return`. */
function returned(fn: TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression): TSESTree.Node | null | undefined {
  if (fn.body.type !== 'BlockStatement') return fn.body;
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only?.type === 'ReturnStatement' ? only.argument : undefined;
}

/** The list `source` keys its rows from when it is `list.map((row) => [key, row])`; undefined otherwise. */
export function keyedRowsOf(source: TSESTree.Node): TSESTree.Node | undefined {
  const call = unwrapExpression(source);
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || memberPropertyName(call.callee) !== 'map')
    return undefined;
  const fn = call.arguments[0];
  if (fn?.type !== 'ArrowFunctionExpression' && fn?.type !== 'FunctionExpression') return undefined;
  const row = fn.params[0];
  const pair = returned(fn);
  if (row?.type !== 'Identifier' || pair?.type !== 'ArrayExpression' || pair.elements.length !== 2) return undefined;
  const value = pair.elements[1];
  return value?.type === 'Identifier' && value.name === row.name ? call.callee.object : undefined;
}

/** The row a lookup in a `Map` of the rows of `list` stands for: a read of its own, changes and checks apart from the list's. */
export function keyedRow(list: ReadSite): ReadSite {
  return { ...list, mutations: [], boundChecks: [], checkedBounds: undefined, grown: undefined };
}
