// Work over what this process keeps under a pool's or a cache's name: a walk over the structure a
// getter hands out in memory (`const notes = this.hub.getSessionPool(); Object.keys(notes).forEach(…)`),
// the upkeep of a pool this module builds (`pool.cleanupStaleSlots()` on `new RenderPool()`), a read
// of an entry of a client library's cache (`for (const g of client.guilds.cache.values()) await g.members.fetch()`).
// Each replica holds its own, so each does its own share.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import {
  CACHED_COLLECTION_NOUNS,
  OWN_POOL_CLASS_NOUN,
  OWN_POOL_GETTER_NOUNS,
  OWN_POOL_GETTER_VERB,
} from '../../src/knowledge/own-pools.js';
import { PER_REPLICA_STALE_VERBS } from '../../src/knowledge/per-replica.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { memberPropertyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { nameWords } from '../ast/name-words.js';
import { descendants } from '../sql/descendants.js';
import { importSource, valueOf } from './in-memory-values.js';
import { verbOf } from './name-verbs.js';
import type { FunctionLike } from './work-function.js';

/** Methods that walk a structure (`forEach`, `values()`), and `Object`'s functions that list one. */
const WALKS: readonly string[] = ['forEach', 'values', 'keys', 'entries', 'map', 'filter', 'some', 'every'];

/** `hub.getSessionPool()`, `this.cacheService.getCache()`: a getter of a pool or cache, no arguments, not awaited. */
function isPoolGetterCall(node: TSESTree.Node | undefined): boolean {
  if (node?.type !== 'CallExpression' || node.arguments.length > 0 || node.parent?.type === 'AwaitExpression') return false;
  const callee = unwrapExpression(node.callee);
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  const words = name === undefined ? [] : nameWords(name);
  return words.length > 1 && words[0] === OWN_POOL_GETTER_VERB && OWN_POOL_GETTER_NOUNS.includes(words.at(-1)!);
}

/** A name bound to what a pool getter handed out, or the getter's call itself. */
function isHandedOutPool(sourceCode: SourceCode, node: TSESTree.Node | undefined): boolean {
  const value = node && unwrapExpression(node);
  if (value?.type === 'Identifier') return isPoolGetterCall(valueOf(sourceCode, value));
  return isPoolGetterCall(value);
}

/** The structure a node walks: `x` of `x.forEach(…)`, `Object.keys(x)`, `for (… of x)`, `for (… in x)`. */
function walkedBy(node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type === 'ForOfStatement' || node.type === 'ForInStatement') return node.right;
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
  const method = memberPropertyName(node.callee);
  if (method === undefined || !WALKS.includes(method)) return undefined;
  const object = unwrapExpression(node.callee.object);
  return object.type === 'Identifier' && object.name === 'Object' ? node.arguments[0] : object;
}

/** The work walks a structure a pool or cache getter handed out (its own body, not the functions it calls). */
export function walksOwnPool(sourceCode: SourceCode, fn: FunctionLike): boolean {
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) if (isHandedOutPool(sourceCode, walkedBy(node))) return true;
  return false;
}

/** `pool.cleanupStaleSlots()` with `const pool = new RenderPool()` of a project class: the upkeep of this process's pool. */
export function upkeepsOwnPool(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return false;
  const method = memberPropertyName(callee);
  if (method === undefined || !PER_REPLICA_STALE_VERBS.includes(verbOf(nameWords(method)) ?? '')) return false;
  const built = valueOf(sourceCode, callee.object);
  if (built?.type !== 'NewExpression' || built.callee.type !== 'Identifier') return false;
  if (nameWords(built.callee.name).at(-1) !== OWN_POOL_CLASS_NOUN) return false;
  const source = importSource(sourceCode, built.callee);
  return source === undefined || isProjectModuleSpecifier(source);
}

/** `guild` of `for (const guild of client.guilds.cache.values())`: an entry of a collection a client library keeps in memory. */
export function isCachedEntry(sourceCode: SourceCode, root: TSESTree.Identifier): boolean {
  const value = valueOf(sourceCode, root);
  let collection = value && unwrapExpression(value);
  if (collection?.type === 'CallExpression' && collection.callee.type === 'MemberExpression')
    collection = unwrapExpression(collection.callee.object);
  else if (collection?.type === 'MemberExpression' && collection.computed) collection = unwrapExpression(collection.object);
  if (collection?.type === 'Identifier') collection = valueOf(sourceCode, collection) ?? collection;
  const name = collection && receiverName(unwrapExpression(collection));
  return name !== undefined && CACHED_COLLECTION_NOUNS.includes(nameWords(name).at(-1) ?? '');
}
