// A cache-aside fill: the work reads a key from a store and, only when the key is missing, computes
// the value and sets that same key on that same store (`let stats = await kv.get(key); if (!stats)
// { stats = …; await kv.set(key, stats, ttl); }`). Whichever replica fills it, the key ends up
// holding the value every replica would derive from what they all read: the write fills a cache on
// a miss, it is not a change made once per period, whether the store is this process's or shared.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { absentWhen } from '../ast/absent-when.js';
import { isFunctionLike } from './work-function.js';
import { CACHE_FILL_METHODS, CACHE_READ_METHODS } from '../../src/knowledge/work-effects.js';

/** Whether `value` reads `key` from `store` (`await kv.get(key)`), both written as in the fill. */
function readsKey(sourceCode: SourceCode, value: TSESTree.Node, store: string, key: string): boolean {
  const read = unwrapExpression(value, { await: true });
  if (read.type !== 'CallExpression' || read.callee.type !== 'MemberExpression') return false;
  const first = read.arguments[0];
  return (
    CACHE_READ_METHODS.includes(memberPropertyName(read.callee) ?? '') &&
    first !== undefined &&
    sourceCode.getText(read.callee.object) === store &&
    sourceCode.getText(first) === key
  );
}

/** Whether `call` sets a key it found missing on the same store, with the value it computed in its place (see above). */
export function fillsMissingCacheKey(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !CACHE_FILL_METHODS.includes(memberPropertyName(callee) ?? '')) return false;
  const [keyNode, valueNode] = call.arguments;
  if (!keyNode || keyNode.type === 'SpreadElement' || valueNode?.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, valueNode);
  if (!variable) return false;
  const [store, key] = [sourceCode.getText(callee.object), sourceCode.getText(keyNode)];
  const read = variable.references.some((r) => r.writeExpr && readsKey(sourceCode, r.writeExpr as TSESTree.Node, store, key));
  if (!read) return false;
  // The set happens only in the branch that found the key missing.
  for (let node: TSESTree.Node | undefined = call.parent; node && !isFunctionLike(node); node = node.parent) {
    const branch: TSESTree.Node | undefined = node.parent;
    const isValue = (tested: TSESTree.Node) => tested.type === 'Identifier' && tested.name === valueNode.name;
    if (branch?.type === 'IfStatement' && branch.consequent === node && absentWhen(branch.test, isValue) === true) return true;
  }
  return false;
}
