// Which links of a builder / ORM chain filter its rows, and the nodes that are its filters: filter
// methods (`where`, `andWhere`, supabase-js's `.eq('status', …)` in a `.from(…)` chain), `where:`
// option values, and criteria objects (`findBy({ status })`).
import type { TSESTree } from '@typescript-eslint/utils';
import { FILTER_METHOD } from '../../src/knowledge/sql.js';
import { isSupabaseFilter } from '../../src/knowledge/supabase.js';
import type { ChainLink } from '../../analysis/sql/method-chain.js';
import { keyName } from './row-names.js';

type Node = TSESTree.Node;

/** The value of an object literal's property `name`, or `undefined`. */
export function objectProperty(node: Node | undefined, name: string): Node | undefined {
  if (node?.type !== 'ObjectExpression') return undefined;
  for (const property of node.properties) if (property.type === 'Property' && keyName(property) === name) return property.value;
  return undefined;
}

/** Whether a link filters its chain's rows: `where`, `andWhere`, …, or supabase-js's `.eq('status', …)` in a `.from(…)` chain. */
export function filterLinkOf(chain: readonly ChainLink[]): (name: string | undefined) => name is string {
  const names = chain.map((l) => l.name);
  return (name): name is string => name !== undefined && (FILTER_METHOD.test(name) || isSupabaseFilter(name, names));
}

/** The nodes of a chain that are filters: filter-method arguments, `where:` option values, and criteria objects. */
export function filterContexts(
  chain: readonly ChainLink[],
  criteriaMethods: ReadonlySet<string>,
): Array<{ node: Node; literalIsColumn: boolean }> {
  const contexts: Array<{ node: Node; literalIsColumn: boolean }> = [];
  const isFilter = filterLinkOf(chain);
  for (const link of chain) {
    const args = link.call.arguments;
    if (isFilter(link.name)) {
      args.forEach((arg, i) => contexts.push({ node: arg, literalIsColumn: i === 0 }));
      continue;
    }
    for (const arg of args) {
      const where = objectProperty(arg, 'where');
      if (where) contexts.push({ node: where, literalIsColumn: false });
    }
    if (link.name && criteriaMethods.has(link.name)) {
      const criteria = args.find((a) => a.type === 'ObjectExpression');
      if (criteria && !objectProperty(criteria, 'where')) contexts.push({ node: criteria, literalIsColumn: false });
    }
  }
  return contexts;
}
