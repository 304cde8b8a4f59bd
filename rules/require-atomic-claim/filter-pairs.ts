// The key / value pairs a builder read filters on (`where: { userId: user.id }`,
// `.where('customer_id', '=', id)`), nested filters included: what the rule asks of a read's
// filter to tell whose rows it reads.
import type { TSESTree } from '@typescript-eslint/utils';
import { methodChain } from '../../analysis/sql/method-chain.js';
import { CRITERIA_FIRST_METHODS, FILTER_METHOD } from '../../src/knowledge/sql.js';
import { filterContexts, type PendingRead } from './claim-shapes.js';
import { keyName } from './row-names.js';

type Node = TSESTree.Node;

/**
 * The key / value pairs of a filter object, and of the filters nested in it: a relation's
 * (`executedRule: { emailAccountId, threadId }`), a combinator's (`AND: [{ userId }]`).
 */
function objectPairs(object: TSESTree.ObjectExpression, pairs: Array<{ key: string; value: Node }>): void {
  for (const p of object.properties) {
    const key = p.type === 'Property' ? keyName(p) : undefined;
    if (p.type !== 'Property') continue;
    if (key !== undefined) pairs.push({ key, value: p.value });
    const nested = p.value.type === 'ArrayExpression' ? p.value.elements : [p.value];
    for (const value of nested) if (value?.type === 'ObjectExpression') objectPairs(value, pairs);
  }
}

/** The key / value pairs of a builder read's filter (`where: { userId: user.id }`, `.where('customer_id', '=', id)`). */
export function filterPairs(read: PendingRead): Array<{ key: string; value: Node }> {
  if (read.kind !== 'builder' || read.node.type !== 'CallExpression') return [];
  const chain = methodChain(read.node);
  const pairs: Array<{ key: string; value: Node }> = [];
  for (const link of chain) {
    const args = link.call.arguments;
    const [column] = args;
    const value = args[args.length - 1];
    if (
      link.name &&
      FILTER_METHOD.test(link.name) &&
      args.length > 1 &&
      column?.type === 'Literal' &&
      typeof column.value === 'string' &&
      value
    )
      pairs.push({ key: column.value.split('.').pop() ?? column.value, value });
  }
  for (const { node } of filterContexts(chain, CRITERIA_FIRST_METHODS)) if (node.type === 'ObjectExpression') objectPairs(node, pairs);
  return pairs;
}
