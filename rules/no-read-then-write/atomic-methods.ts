// Increment methods as writes: the change runs in the database, so no value read is written back,
// but a bound checked on the value read is not in the write (checked-bounds.ts):
//
//   const seat = await Seat.findByPk(id);
//   if (seat.taken < seat.max) await seat.increment('taken');   // two requests both pass: max + 1
//
// Sequelize on a loaded row `row.increment('f' | ['f', 'g'] | { f: n }, { by })` (one by default)
// and on the model `Model.increment(… , { by, where })`; TypeORM `repo.increment(criteria, 'f', n)`
// (and `manager.increment(Entity, criteria, 'f', n)`); knex `knex(t).where(…).increment('f', n)`.
// `decrement` the same, lowering. A row's own increment changes that row only: the bound must be
// one checked on it.
import type { TSESTree } from '@typescript-eslint/utils';
import { LIBRARY_READS_WRITES } from '../../src/knowledge/orm-reads-writes.js';
import { methodChainOf } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { negative } from './checked-bounds.js';
import type { AtomicChange, WriteSite } from './model.js';
import { builderTable, nameOf, objectProperty, whereArguments, write } from './write-site.js';

type Node = TSESTree.Node;

/** The method names (`increment`, `decrement`) Sequelize, TypeORM and knex change a counter with. */
export const INCREMENT_METHODS: readonly string[] = [
  ...new Set([
    ...LIBRARY_READS_WRITES.sequelize.atomicMethods,
    ...LIBRARY_READS_WRITES.typeorm.atomicMethods,
    ...LIBRARY_READS_WRITES.knex.atomicMethods,
  ]),
];
const METHODS: ReadonlySet<string | undefined> = new Set(INCREMENT_METHODS);

const stringOf = (node: Node | undefined): string | undefined => {
  const expr = node && node.type !== 'SpreadElement' ? unwrapExpression(node) : undefined;
  return expr?.type === 'Literal' && typeof expr.value === 'string' ? expr.value : undefined;
};

/** The fields and amounts of `'f'`, `['f', 'g']` (each by `by`) or `{ f: n }`. */
function fieldChanges(fields: Node | undefined, by: Node | undefined, decrement: boolean): AtomicChange[] {
  if (!fields || fields.type === 'SpreadElement') return [];
  const expr = unwrapExpression(fields);
  const change = (field: string, node: Node, amount: Node | undefined): AtomicChange => ({
    field,
    node,
    amount,
    lowers: decrement !== (amount !== undefined && negative(amount)),
  });
  if (expr.type === 'ObjectExpression')
    return expr.properties.flatMap((p) => {
      const field = p.type === 'Property' ? propertyKeyName(p) : undefined;
      return field !== undefined && p.type === 'Property' ? [change(field, p, p.value)] : [];
    });
  const list = expr.type === 'ArrayExpression' ? expr.elements : [expr];
  return list.flatMap((e) => {
    const field = stringOf(e ?? undefined);
    return field !== undefined && e ? [change(field, e, by)] : [];
  });
}

/**
 * The write an increment method `call` is, or null. `isLoadedEntity(node)` says whether a node is
 * a row loaded by a read (`seat.increment(…)`, `this.increment(…)` in a model's instance method).
 */
export function incrementSiteOf(call: TSESTree.CallExpression, isLoadedEntity: (node: Node) => boolean): WriteSite | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !METHODS.has(memberPropertyName(callee))) return null;
  const decrement = memberPropertyName(callee) === 'decrement';
  const [first, second, third, fourth] = call.arguments;
  const receiver = unwrapExpression(callee.object);
  const { links, root } = methodChainOf(call);
  const below = links.slice(0, -1);
  const site = (
    candidates: WriteSite['candidates'],
    changes: AtomicChange[],
    model: string | null,
    filter?: Node[],
    own?: true,
  ): WriteSite | null =>
    changes.length === 0
      ? null
      : {
          ...write(candidates, call, callee.property, [], model, [], filter, first),
          counted: { changes, ...(own ? { instance: receiver } : {}) },
        };
  const by = second ? objectProperty(unwrapExpression(second), 'by') : undefined;
  // knex(t).where(…).increment('f', n) / .increment({ f: n })
  if ((below.length > 0 || root.type === 'CallExpression') && whereArguments(call).length > 0)
    return site(['knex'], fieldChanges(first, second, decrement), builderTable(root, below));
  if (isLoadedEntity(receiver)) {
    // An instance holds no filter: `where` of its options is ignored (the row is its own).
    return site(['sequelize'], fieldChanges(first, by, decrement), null, [], true);
  }
  // TypeORM: repo.increment(criteria, 'f', n), manager.increment(Entity, criteria, 'f', n)
  if (stringOf(third) !== undefined && fourth) return site(['typeorm'], fieldChanges(third, fourth, decrement), nameOf(first), [second!]);
  if (stringOf(second) !== undefined && third) return site(['typeorm'], fieldChanges(second, third, decrement), nameOf(receiver), [first!]);
  // Sequelize: Model.increment(fields, { by, where })
  const where = second ? objectProperty(unwrapExpression(second), 'where') : undefined;
  return where ? site(['sequelize'], fieldChanges(first, by, decrement), nameOf(receiver), [where]) : null;
}
