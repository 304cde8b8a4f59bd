// What a write's filter (or a value it sends) names of the reads before it: the read fields it
// compares against their read values (`where: { id, version: row.version }`: a compare-and-set,
// with the rows-affected count checked, loses no update), the rows it names by their primary key
// (`where: { id: today.id }`), and the reads a value is computed from.
import type { TSESTree } from '@typescript-eslint/utils';
import { PRIMARY_KEY_COLUMN } from '../../src/knowledge/orm-reads-writes.js';
import { taintOf, type TaintEnvironment } from './taint.js';
import { settled } from './pending-reads.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { methodChainOf } from '../../analysis/ast/method-chain.js';
import type { ReadSite, Taint } from './model.js';

const MAX_DEPTH = 12;

/** Every taint under `nodes`, through objects, arrays, call arguments and operators. */
function eachTaint(nodes: readonly TSESTree.Node[], env: TaintEnvironment, found: (taint: Taint) => void): void {
  const visit = (node: TSESTree.Node | null | undefined, depth: number): void => {
    if (!node || depth > MAX_DEPTH) return;
    const expr = unwrapExpression(node);
    switch (expr.type) {
      case 'ObjectExpression':
        for (const property of expr.properties) visit(property.type === 'Property' ? property.value : property.argument, depth + 1);
        return;
      case 'ArrayExpression':
        for (const element of expr.elements) visit(element, depth + 1);
        return;
      case 'CallExpression':
        for (const argument of expr.arguments) visit(argument, depth + 1);
        return;
      case 'LogicalExpression':
      case 'BinaryExpression':
        if (expr.left.type !== 'PrivateIdentifier') visit(expr.left, depth + 1);
        visit(expr.right, depth + 1);
        return;
      case 'SpreadElement':
        visit(expr.argument, depth + 1);
        return;
      default: {
        const taint = settled(taintOf(expr, env));
        if (taint) found(taint);
      }
    }
  };
  for (const node of nodes) visit(node, 0);
}

export function comparedFieldsOf(nodes: readonly TSESTree.Node[], env: TaintEnvironment): Set<string> {
  const fields = new Set<string>();
  eachTaint(nodes, env, (taint) => {
    if (!taint.computed && taint.field !== null) fields.add(taint.field);
  });
  return fields;
}

/** The reads whose row a filter names by its primary key as read (`where: { id: today.id }`). */
function rowsNamedBy(nodes: readonly TSESTree.Node[], env: TaintEnvironment): Set<ReadSite> {
  const reads = new Set<ReadSite>();
  eachTaint(nodes, env, (taint) => {
    if (!taint.computed && taint.field !== null && PRIMARY_KEY_COLUMN.test(taint.field)) reads.add(taint.read);
  });
  return reads;
}

/**
 * The rows a read picks by the key of another loaded row (`Shop.findOne({ _id: shop._id })` for a
 * `shop` of a list): the same row read again, so a write naming that key writes back to it.
 */
function rowsReadAgain(read: ReadSite, env: TaintEnvironment): Set<ReadSite> {
  if (read.node.type !== 'CallExpression') return new Set();
  const filters = methodChainOf(read.node).links.flatMap((link) => link.call.arguments);
  const reads = rowsNamedBy(filters, env);
  reads.delete(read);
  return reads;
}

/** The reads a written value is computed from (`b.balance + a.amount` names both). */
function readsIn(node: TSESTree.Node, env: TaintEnvironment): Set<ReadSite> {
  const reads = new Set<ReadSite>();
  eachTaint([node], env, (taint) => reads.add(taint.read));
  return reads;
}

/**
 * The changes a write sends back to the rows they were read from. When its filter names loaded
 * rows of the model by their key (`where: { id: today.id }`), a value computed only from another
 * row (yesterday's totals) is written to those rows, not back where it was read.
 */
export function writtenToRowsRead<T extends { read: ReadSite; value?: TSESTree.Node }>(
  changes: T[],
  conditions: readonly TSESTree.Node[],
  env: TaintEnvironment,
  sameModel: (read: ReadSite) => boolean,
): T[] {
  const named = changes.length > 0 && conditions.length > 0 ? [...rowsNamedBy(conditions, env)].filter(sameModel) : [];
  if (named.length === 0) return changes;
  return changes.filter(
    ({ read, value }) =>
      named.includes(read) ||
      (value !== undefined && [...readsIn(value, env)].some((r) => named.includes(r))) ||
      [...rowsReadAgain(read, env)].some((r) => named.includes(r)),
  );
}
