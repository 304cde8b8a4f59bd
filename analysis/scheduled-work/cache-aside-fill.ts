// A cache-aside fill: the work reads a key from a store and, only when the key is missing, computes
// the value and sets that same key on that same store (`let stats = await kv.get(key); if (!stats)
// { stats = …; await kv.set(key, stats, ttl); }`). Whichever replica fills it, the key ends up
// holding the value every replica would derive from what they all read: the write fills a cache on
// a miss, it is not a change made once per period, whether the store is this process's or shared.
// The same for a database's get-or-create of a default row by upsert (`upsertsOnMiss`).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { absentWhen } from '../ast/absent-when.js';
import { isFunctionLike } from './work-function.js';
import { CACHE_FILL_METHODS, CACHE_READ_METHODS } from '../../src/knowledge/work-effects.js';
import { READ_VERBS } from '../../src/knowledge/host-local.js';
import { nameWords } from '../ast/name-words.js';
import { exits } from './exit-tests.js';

/** The verb of a write that inserts a row or leaves the one there (`upsertPreferences`). */
const UPSERT_VERB = 'upsert';

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

/** `const existing = await repo.findPrefs(id)`: a name holding what an awaited read-named call answered. */
function holdsRead(sourceCode: SourceCode, identifier: TSESTree.Identifier): boolean {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  const init = def?.node.type === 'VariableDeclarator' ? def.node.init : null;
  const read = init && unwrapExpression(init, { await: true });
  if (read?.type !== 'CallExpression' || init?.type !== 'AwaitExpression') return false;
  const name = read.callee.type === 'Identifier' ? read.callee.name : memberPropertyName(read.callee);
  return name !== undefined && READ_VERBS.includes(nameWords(name)[0] ?? '');
}

/**
 * A get-or-create of a default row: `const existing = await repo.findPrefs(id); if (existing) return
 * existing; return repo.upsertPrefs(id, {});` (or the upsert in the branch that found it missing).
 * Whichever replica fills it, the upsert leaves the one row every replica would: no change made per period.
 */
export function upsertsOnMiss(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const name = call.callee.type === 'Identifier' ? call.callee.name : memberPropertyName(call.callee);
  if (name === undefined || nameWords(name)[0] !== UPSERT_VERB) return false;
  const found = (tested: TSESTree.Node): tested is TSESTree.Identifier => tested.type === 'Identifier' && holdsRead(sourceCode, tested);
  let child: TSESTree.Node = call;
  for (let node: TSESTree.Node | undefined = call.parent; node && !isFunctionLike(node); child = node, node = node.parent) {
    if (node.type === 'IfStatement' && node.consequent === child && absentWhen(node.test, found) === true) return true;
    if (node.type !== 'BlockStatement') continue;
    const before = node.body.slice(0, node.body.indexOf(child as TSESTree.Statement));
    if (before.some((s) => s.type === 'IfStatement' && exits(s.consequent) && absentWhen(s.test, found) === false)) return true;
  }
  return false;
}
