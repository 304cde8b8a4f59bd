// The table a knex-style builder chain starts from. Called on the client itself, `knex('accounts')`
// is the chain's root; called through a handle — `this.knex('accounts')`, `this.#db('accounts')`,
// `trx.table('accounts')` — it is the chain's first link, named for the handle, with the table's
// name as its one argument. A repository accessor (`getRepository('Order')`, `model('User')`) names
// an entity, not a builder's table.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ChainLink } from '../../analysis/ast/method-chain.js';
import { REPOSITORY_ACCESSORS } from '../../src/knowledge/orm-reads-writes.js';

const ACCESSORS: ReadonlySet<string | undefined> = new Set(REPOSITORY_ACCESSORS);

/** The string a call is given first, or null. */
function firstString(call: TSESTree.CallExpression): string | null {
  const argument = call.arguments[0];
  return argument?.type === 'Literal' && typeof argument.value === 'string' ? argument.value : null;
}

/**
 * The table a builder chain starts from, or null: `root` is what its first method is called on,
 * `before` the links before the read or write asked about (innermost first).
 */
export function startingTable(root: TSESTree.Node, before: readonly ChainLink[]): string | null {
  if (root.type === 'CallExpression') return firstString(root);
  const first = before[0];
  if (!first || first.call.arguments.length !== 1 || ACCESSORS.has(first.name)) return null;
  return firstString(first.call);
}
