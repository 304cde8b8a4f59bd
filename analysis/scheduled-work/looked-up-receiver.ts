// A receiver looked up by its key in a collection of an outside system, whatever the lookup is
// called: `client.channels.cache.get(id).send(embed)`, `(await client.channels.fetch(id)).send(text)`,
// also kept in a `const` first (`const user = await client.users.fetch(r.userId); await user.send(…)`,
// its failure swallowed: `await client.channels.fetch(id).catch(() => {})`, or handed to a `.then`
// callback: `channel.messages.fetch(id).then((message) => message.edit(text))`), and a change made in
// place on it (`channel.setName(text)`, `member.ban()`) is a call to that system too.
// The entry is one of the collection's — a channel, a webhook (a plural of EXTERNAL_RECEIVER_WORDS),
// or whatever an awaited `fetch(key)` brought from the server — so a send on it leaves the process
// like `channel.send(…)`. A server's own connections (`wss.clients.get(id)`) stay its own
// (OWN_CONNECTION_COLLECTIONS), and so does an entry of a cache alone (`await cache.fetch(key)`).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { RECEIVER_BOUND_VERBS } from '../../src/knowledge/per-replica.js';
import {
  COLLECTION_LOOKUP_METHODS,
  ENTRY_WRITE_METHODS,
  EXTERNAL_RECEIVER_WORDS,
  LOOKUP_HOLDER_WORDS,
  OWN_CONNECTION_COLLECTIONS,
  REMOTE_LOOKUP_METHOD,
} from '../../src/knowledge/work-effects.js';

/** The name one link of a member chain spells (`channels` of `client.channels`), lower case. */
function linkName(node: TSESTree.Node): string | undefined {
  const name = node.type === 'Identifier' ? node.name : node.type === 'MemberExpression' ? memberPropertyName(node) : undefined;
  return name?.toLowerCase();
}

/** The plural collection a lookup is called on, past where its entries are held (`channels` of `client.channels.cache`). */
function lookedUpCollection(lookup: TSESTree.MemberExpression): string | undefined {
  let link: TSESTree.Node = lookup.object;
  for (let depth = 0; depth < 3; depth++) {
    const name = linkName(link);
    if (name === undefined) return undefined;
    if (!LOOKUP_HOLDER_WORDS.includes(name)) return name.length > 1 && name.endsWith('s') ? name : undefined;
    if (link.type !== 'MemberExpression') return undefined;
    link = link.object;
  }
  return undefined;
}

/** `client.channels.fetch(id).catch(() => {})`: the lookup whose failure is swallowed. */
function withoutCatch(node: TSESTree.Node): TSESTree.Node {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || memberPropertyName(node.callee) !== 'catch') return node;
  return unwrapExpression(node.callee.object);
}

/** Whether `receiver` is an entry looked up by its key in a collection of an outside system. */
export function isLookedUpExternalEntry(receiver: TSESTree.Node, settled = false): boolean {
  const awaited = settled || unwrapExpression(receiver).type === 'AwaitExpression';
  const lookup = withoutCatch(unwrapExpression(receiver, { await: true }));
  if (lookup.type !== 'CallExpression' || lookup.callee.type !== 'MemberExpression' || lookup.arguments.length === 0) return false;
  const method = memberPropertyName(lookup.callee);
  if (!COLLECTION_LOOKUP_METHODS.includes(method ?? '')) return false;
  const collection = lookedUpCollection(lookup.callee);
  if (collection === undefined || OWN_CONNECTION_COLLECTIONS.includes(collection)) return false;
  return EXTERNAL_RECEIVER_WORDS.has(collection.slice(0, -1)) || (awaited && method === REMOTE_LOOKUP_METHOD);
}

/**
 * `user.send(text)`, `ch?.send(embed)`, `channel.setName(text)`: a one-word send, or a change made in
 * place (ENTRY_WRITE_METHODS), on a `const` given a looked-up entry of an outside system.
 */
export function sendsOnLookedUpEntry(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  const method = callee.type === 'MemberExpression' ? (memberPropertyName(callee) ?? '') : '';
  if (callee.type !== 'MemberExpression' || !(RECEIVER_BOUND_VERBS.includes(method) || ENTRY_WRITE_METHODS.includes(method))) return false;
  const receiver = unwrapExpression(callee.object);
  if (receiver.type !== 'Identifier') return false;
  const def = scopeVariable(sourceCode, receiver)?.defs[0];
  const settled = def?.type === 'Parameter' ? settledLookupOf(def.node as TSESTree.Node, def.name) : undefined;
  if (settled) return isLookedUpExternalEntry(settled, true);
  const declarator = def?.type === 'Variable' ? (def.node as TSESTree.Node) : undefined;
  return declarator?.type === 'VariableDeclarator' && declarator.init !== null && isLookedUpExternalEntry(declarator.init);
}

/** `channel.messages.fetch(id).then((message) => …)`: the lookup whose settled entry the callback's first parameter is. */
function settledLookupOf(fn: TSESTree.Node, parameter: TSESTree.Node): TSESTree.Node | undefined {
  if ((fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') || fn.params[0] !== parameter) return undefined;
  const then = fn.parent;
  if (then?.type !== 'CallExpression' || then.arguments[0] !== fn || then.callee.type !== 'MemberExpression') return undefined;
  return memberPropertyName(then.callee) === 'then' ? unwrapExpression(then.callee.object) : undefined;
}
