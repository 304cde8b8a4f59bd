// Which parameter of a callback receives a tainted value, and from where: the element of a tainted
// array iterated by it (`rows.forEach((row) => …)`, the second parameter of `reduce`), or the row a
// read resolves to, handed to `.then` (`Product.findById(id).then((product) => { product.sum += n;
// return product.save(); })`) — also a read returned by the `.then` callback before it
// (`.then(() => Product.findOne(q)).then((product) => …)`).
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

type Node = TSESTree.Node;

const ITERATING_METHODS = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'reduce']);

/** What a promise settles to for the `.then` after it: a `.then` callback's returned value, else the promise itself. */
function resolvedValueOf(promise: Node): Node | undefined {
  const call = unwrapExpression(promise);
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || memberPropertyName(call.callee) !== 'then') return call;
  const callback = call.arguments[0];
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return undefined;
  if (callback.body.type !== 'BlockStatement') return callback.body;
  const last = callback.body.body.at(-1);
  return last?.type === 'ReturnStatement' && last.argument ? last.argument : undefined;
}

/**
 * The value whose taint the callback's parameter at `index` takes, when `fn` is a callback of one
 * of these; `settles` for `.then`, whose read may sit in a callback before it (no function live).
 */
export function callbackSource(fn: TSESTree.FunctionLike): { value: Node; index: number; settles?: true } | undefined {
  const parent = fn.parent;
  if (parent?.type !== 'CallExpression' || parent.arguments[0] !== fn) return undefined;
  const callee = unwrapExpression(parent.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const method = memberPropertyName(callee) ?? '';
  if (ITERATING_METHODS.has(method)) return { value: callee.object, index: method === 'reduce' ? 1 : 0 };
  if (method !== 'then') return undefined;
  const value = resolvedValueOf(callee.object);
  return value ? { value, index: 0, settles: true } : undefined;
}
