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
// ceiling), the check must leave (throw, return) before the write, or hold it in its `else`, in the
// same function or a callback it defines (a confirmation's `.then`), and the
// write's filter must not name the field (`where: { userId, balance: { gte: amount } }` carries
// the bound), nor move the row out of the state it filters on (`where: { id, isUsed: false }`
// with `isUsed: true`: one writer passes). Prisma `{ increment }` / `{ decrement }` and MongoDB `$inc`.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { contains, exits } from './control-flow.js';
import type { AtomicChange, FieldChange, PendingFinding, ReadSite, Taint, WriteSite } from './model.js';
import { boundReadsOf, guardsWrite, inFunctionOf } from './bound-guards.js';

type Node = TSESTree.Node;

const MAX_FILTER_DEPTH = 4;

function propertiesOf(node: Node | undefined): TSESTree.Property[] {
  const expr = node ? unwrapExpression(node) : undefined;
  return expr?.type === 'ObjectExpression' ? expr.properties.filter((p): p is TSESTree.Property => p.type === 'Property') : [];
}

/** `-n`, `-1`: an amount that lowers the value it is added to. */
export function negative(node: Node): boolean {
  const expr = unwrapExpression(node);
  return (
    (expr.type === 'UnaryExpression' && expr.operator === '-') ||
    (expr.type === 'Literal' && typeof expr.value === 'number' && expr.value < 0)
  );
}

/** Prisma `data: { balance: { decrement: n } }` and MongoDB `{ $inc: { balance: -n } }`. */
export function atomicChangesOf(write: WriteSite): AtomicChange[] {
  if (write.counted) return write.counted.changes;
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

/**
 * Whether a filter names `field` (`balance: { gte: n }`, through `AND` / `$and` lists, nested
 * objects and spread parts, `...(max != null ? { used: { lt: max } } : {})`).
 */
export function namesField(node: Node | undefined, field: string, depth = 0): boolean {
  if (!node || depth > MAX_FILTER_DEPTH) return false;
  const expr = unwrapExpression(node);
  if (expr.type === 'ArrayExpression')
    return expr.elements.some((e) => e !== null && e.type !== 'SpreadElement' && namesField(e, field, depth + 1));
  if (expr.type === 'ConditionalExpression')
    return namesField(expr.consequent, field, depth + 1) || namesField(expr.alternate, field, depth + 1);
  if (expr.type === 'LogicalExpression') return namesField(expr.right, field, depth + 1);
  // knex `.where('used', '<', limit)` / `.andWhere('used', '<', limit)`: the column named by its string.
  if (expr.type === 'Literal') return expr.value === field;
  if (expr.type !== 'ObjectExpression') return false;
  return expr.properties.some((p) =>
    p.type === 'SpreadElement'
      ? namesField(p.argument, field, depth + 1)
      : propertyKeyName(p) === field || namesField(p.value, field, depth + 1),
  );
}

/** A literal's value (`false`, `'PENDING'`), or undefined for anything else. */
function literalValue(node: Node): unknown {
  const expr = unwrapExpression(node);
  return expr.type === 'Literal' ? (expr.value ?? null) : undefined;
}

/**
 * Whether the write moves a row from one state to another and only from it: its filter pins a
 * field to a literal (`where: { id, isUsed: false }`) that its data sets to another literal
 * (`isUsed: true`). Of writers racing from one read, one passes the filter; the others change no
 * row, so the change it carries (`usedCount: { increment: 1 }`) is made once per transition.
 */
export function transitionsState(write: WriteSite): boolean {
  const pinned = new Map<string, unknown>();
  for (const condition of write.conditions)
    for (const property of propertiesOf(condition)) {
      const key = propertyKeyName(property);
      const value = literalValue(property.value);
      if (key !== undefined && value !== undefined) pinned.set(key, value);
    }
  if (pinned.size === 0) return false;
  const data = propertiesOf(write.shape.data);
  const set = data.find((p) => propertyKeyName(p) === '$set');
  return [...data, ...propertiesOf(set?.value)].some((property) => {
    const key = propertyKeyName(property);
    const value = literalValue(property.value);
    return key !== undefined && value !== undefined && pinned.has(key) && pinned.get(key) !== value;
  });
}

/**
 * Whether `write` runs only once `check` passed, in the check's function or a callback it defines
 * (`confirm().then(() => write)`): after a check whose branch leaves, or in the check's `else`.
 */
export function passedBefore(check: TSESTree.IfStatement, write: Node, fn: Node | undefined): boolean {
  const inElse = check.alternate !== null && contains(check.alternate, write);
  if (!inElse && (check.range[1] > write.range[0] || !exits(check.consequent))) return false;
  return inFunctionOf(check, fn);
}

/** The change the finding reports: the field, `±` and the amount as written. */
const fieldChangeOf = (change: AtomicChange, sourceCode: { getText(node: Node): string }): FieldChange => ({
  field: change.field,
  node: change.node,
  operator: change.lowers ? '-' : '+',
  operand: change.amount ? sourceCode.getText(change.amount) : '1',
  readField: change.field,
});

/**
 * The pending findings of `write`: each field it changes in the database in the direction that
 * crosses a bound a read of the same function checked before it, with the bound not in its filter.
 */
export function uncheckedBoundChanges(
  write: WriteSite,
  reads: Iterable<ReadSite | null>,
  sameModel: (read: ReadSite) => boolean,
  sourceCode: { getText(node: Node): string },
  taintOf: (node: Node) => Taint | null,
): PendingFinding[] {
  if (write.node.type !== 'CallExpression') return [];
  const changes = atomicChangesOf(write);
  if (changes.length === 0 || transitionsState(write)) return [];
  const fn = enclosingFunction(write.node);
  const { reads: bounded, same } = boundReadsOf(write, reads, sameModel, taintOf);
  const out: PendingFinding[] = derivedAmountChanges(write, changes, same, sourceCode, taintOf);
  for (const read of bounded) {
    if (!read?.checkedBounds || read.locked || !same(read)) continue;
    for (const change of changes) {
      if (write.conditions.some((c) => namesField(c, change.field))) continue;
      const bound = read.checkedBounds.find(
        (b) => b.field === change.field && b.floor === change.lowers && guardsWrite(b, write.node, fn, passedBefore),
      );
      if (!bound || out.some((f) => f.changes[0]?.field === change.field)) continue;
      out.push({ read, write, changes: [fieldChangeOf(change, sourceCode)], loc: undefined, checkedBound: bound.check });
    }
  }
  return out;
}

/**
 * The changes of `write` whose amount was computed from the stored value of the field it changes
 * (`free = Math.min(cost, LIMIT - usage.used)` then `$inc: { used: free }`): the bound is applied
 * to the value read, so two requests that read the same value both take the same room under it
 * and together cross it. The write's filter naming the field carries the bound instead.
 */
function derivedAmountChanges(
  write: WriteSite,
  changes: readonly AtomicChange[],
  sameModel: (read: ReadSite) => boolean,
  sourceCode: { getText(node: Node): string },
  taintOf: (node: Node) => Taint | null,
): PendingFinding[] {
  const out: PendingFinding[] = [];
  for (const change of changes) {
    if (write.conditions.some((c) => namesField(c, change.field))) continue;
    if (!change.amount) continue;
    const amount = unwrapExpression(change.amount);
    const t = taintOf(amount.type === 'UnaryExpression' ? amount.argument : amount);
    if (!t?.computed || t.read.locked || !sameModel(t.read) || (t.computed.field ?? t.field) !== change.field) continue;
    out.push({ read: t.read, write, changes: [fieldChangeOf(change, sourceCode)], loc: undefined, derivedBound: true });
  }
  return out;
}
