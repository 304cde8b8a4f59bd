// A bound checked on the value read, then the field changed in the database without it:
//
//   const wallet = await prisma.wallet.findUnique({ where: { userId } });
//   if (wallet.balance < amount) throw new Error('insufficient');
//   await prisma.wallet.update({ where: { userId }, data: { balance: { decrement: amount } } });
//
// The decrement itself loses nothing, but two requests (or replicas) both read 100, both pass the
// check for 80 and both take 80 off: the balance the check protects goes below zero. The same for
// a ceiling (`if (log.usedCount >= max) throw` then `$inc: { usedCount: 1 }`). Only a change in
// the direction that can cross the bound counts (a decrement after a floor, an increment after a
// ceiling), the check must leave (throw, return) before the write in the same function, and the
// write's filter must not name the field (`where: { userId, balance: { gte: amount } }` carries
// the bound). Prisma `{ increment }` / `{ decrement }` and MongoDB `$inc`.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import type { FieldChange, PendingFinding, ReadSite, WriteSite } from './model.js';

type Node = TSESTree.Node;

/** A field changed in the database by the write, and whether the change lowers it. */
interface AtomicChange {
  field: string;
  node: Node;
  lowers: boolean;
  amount: Node;
}

const MAX_FILTER_DEPTH = 4;

function propertiesOf(node: Node | undefined): TSESTree.Property[] {
  const expr = node ? unwrapExpression(node) : undefined;
  return expr?.type === 'ObjectExpression' ? expr.properties.filter((p): p is TSESTree.Property => p.type === 'Property') : [];
}

/** `-n`, `-1`: an amount that lowers the value it is added to. */
function negative(node: Node): boolean {
  const expr = unwrapExpression(node);
  return (
    (expr.type === 'UnaryExpression' && expr.operator === '-') ||
    (expr.type === 'Literal' && typeof expr.value === 'number' && expr.value < 0)
  );
}

/** Prisma `data: { balance: { decrement: n } }` and MongoDB `{ $inc: { balance: -n } }`. */
function atomicChangesOf(write: WriteSite): AtomicChange[] {
  const out: AtomicChange[] = [];
  for (const property of propertiesOf(write.shape.data)) {
    const key = propertyKeyName(property);
    if (key === undefined) continue;
    if (key === '$inc') {
      for (const inc of propertiesOf(property.value)) {
        const field = propertyKeyName(inc);
        if (field !== undefined) out.push({ field, node: inc, lowers: negative(inc.value), amount: inc.value });
      }
      continue;
    }
    if (!write.candidates.includes('prisma')) continue;
    for (const op of propertiesOf(property.value)) {
      const name = propertyKeyName(op);
      if (name === 'increment' || name === 'decrement')
        out.push({ field: key, node: op, lowers: (name === 'decrement') !== negative(op.value), amount: op.value });
    }
  }
  return out;
}

/** Whether a filter names `field` (`balance: { gte: n }`, through `AND` / `$and` lists and nested objects). */
function namesField(node: Node | undefined, field: string, depth = 0): boolean {
  if (!node || depth > MAX_FILTER_DEPTH) return false;
  const expr = unwrapExpression(node);
  if (expr.type === 'ArrayExpression')
    return expr.elements.some((e) => e !== null && e.type !== 'SpreadElement' && namesField(e, field, depth + 1));
  return propertiesOf(expr).some((p) => propertyKeyName(p) === field || namesField(p.value, field, depth + 1));
}

/**
 * The pending findings of `write`: each field it changes in the database in the direction that
 * crosses a bound a read of the same function checked before it, with the bound not in its filter.
 */
export function uncheckedBoundChanges(
  write: WriteSite,
  reads: Iterable<ReadSite | null>,
  sameModel: (read: ReadSite) => boolean,
  sourceCode: { getText(node: Node): string },
): PendingFinding[] {
  if (write.node.type !== 'CallExpression') return [];
  const changes = atomicChangesOf(write);
  if (changes.length === 0) return [];
  const fn = enclosingFunction(write.node);
  const out: PendingFinding[] = [];
  for (const read of reads) {
    if (!read?.checkedBounds || read.locked || !sameModel(read)) continue;
    for (const change of changes) {
      if (write.conditions.some((c) => namesField(c, change.field))) continue;
      const bound = read.checkedBounds.find(
        (b) =>
          b.field === change.field &&
          b.floor === change.lowers &&
          b.check.range[1] <= write.node.range[0] &&
          enclosingFunction(b.check) === fn,
      );
      if (!bound) continue;
      const fieldChange: FieldChange = {
        field: change.field,
        node: change.node,
        operator: change.lowers ? '-' : '+',
        operand: sourceCode.getText(change.amount),
        readField: change.field,
      };
      out.push({ read, write, changes: [fieldChange], loc: undefined, checkedBound: bound.check });
    }
  }
  return out;
}
