// A receiver looked up by its key in a collection named for an outside system:
// `client.channels.cache.get(id).send(embed)`, `(await client.channels.fetch(id)).send(text)`,
// `this.webhooks.get(name).post(body)`. Whatever the lookup is called, the entry is one of the
// collection's — a channel, a webhook — so a send on it leaves the process like `channel.send(…)`.
// A server's own connections (`wss.clients.get(id)`) stay its own (OWN_CONNECTION_COLLECTIONS).
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import {
  COLLECTION_LOOKUP_METHODS,
  EXTERNAL_RECEIVER_WORDS,
  LOOKUP_HOLDER_WORDS,
  OWN_CONNECTION_COLLECTIONS,
} from '../../src/knowledge/work-effects.js';

/** The name one link of a member chain spells (`channels` of `client.channels`), lower case. */
function linkName(node: TSESTree.Node): string | undefined {
  const name = node.type === 'Identifier' ? node.name : node.type === 'MemberExpression' ? memberPropertyName(node) : undefined;
  return name?.toLowerCase();
}

/** Whether the receiver of `callee` (`x.send`) is an entry looked up in a plural collection of an outside system. */
export function isLookedUpExternalEntry(callee: TSESTree.Node): boolean {
  if (callee.type !== 'MemberExpression') return false;
  const lookup = unwrapExpression(callee.object, { await: true });
  if (lookup.type !== 'CallExpression' || lookup.callee.type !== 'MemberExpression') return false;
  if (!COLLECTION_LOOKUP_METHODS.includes(memberPropertyName(lookup.callee) ?? '')) return false;
  // Up the chain past where entries are held (`cache`) to the collection they belong to.
  let link: TSESTree.Node = lookup.callee.object;
  for (let depth = 0; depth < 3; depth++) {
    const name = linkName(link);
    if (name === undefined || OWN_CONNECTION_COLLECTIONS.includes(name)) return false;
    if (!LOOKUP_HOLDER_WORDS.includes(name)) return name.length > 1 && name.endsWith('s') && EXTERNAL_RECEIVER_WORDS.has(name.slice(0, -1));
    if (link.type !== 'MemberExpression') return false;
    link = link.object;
  }
  return false;
}
