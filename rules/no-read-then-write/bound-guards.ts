// Whether a bound checked on a value read guards a write: the check leaves before it (or holds it
// in its `else`), or holds it in its consequent where the check passed (`if (seat.taken < seat.max)
// { await seat.increment('taken') }`). A check held so is remembered here with the sense of what
// passes: `taken < max` passing keeps `taken` under a ceiling, `credit > 0` (or `credit !== 0`)
// keeps `credit` over a floor. Only through `&&`: a check under `||` may pass on its other side.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { contains } from './control-flow.js';
import type { CheckedBound, ReadSite, Taint, WriteSite } from './model.js';

type Node = TSESTree.Node;

/** Whether `inner` runs in the function of `outer`, or in a callback that function defines. */
export function inFunctionOf(outer: Node, fn: Node | undefined): boolean {
  const outerFn = enclosingFunction(outer);
  return outerFn === fn || (outerFn !== undefined && fn !== undefined && contains(outerFn, fn));
}

/** Whether the bound guards `write` (in function `fn`): held in the check's consequent, or `passed` before it (checked-bounds.ts). */
export function guardsWrite(
  bound: CheckedBound,
  write: Node,
  fn: Node | undefined,
  passed: (check: TSESTree.IfStatement, write: Node, fn: Node | undefined) => boolean,
): boolean {
  if (bound.held) return contains(bound.check.consequent, write) && inFunctionOf(bound.check, fn);
  return passed(bound.check, write, fn);
}

/**
 * The reads whose checked bounds can guard `write`, and whether a read is of the rows it changes:
 * for an increment method on a loaded row (atomic-methods.ts), only the read that loaded that row
 * (`this` of a model's method is one no call made); for any other write, every read and `sameModel`.
 */
export function boundReadsOf(
  write: WriteSite,
  reads: Iterable<ReadSite | null>,
  sameModel: (read: ReadSite) => boolean,
  taintOf: (node: Node) => Taint | null,
): { reads: Iterable<ReadSite | null>; same: (read: ReadSite) => boolean } {
  const instance = write.counted?.instance;
  if (!instance) return { reads, same: sameModel };
  const row = taintOf(instance)?.read ?? null;
  return { reads: [row], same: (read) => read === row };
}

const zero = (node: Node): boolean => {
  const expr = unwrapExpression(node);
  return expr.type === 'Literal' && expr.value === 0;
};

/** The compared value and the side it keeps when the test passes (`true`: over a floor), or null. */
function passingSide(expr: TSESTree.BinaryExpression, taintOf: (node: Node) => Taint | null): { t: Taint; floor: boolean } | null {
  if (expr.left.type === 'PrivateIdentifier') return null;
  const left = taintOf(expr.left);
  const t = left ?? taintOf(expr.right);
  if (!t) return null;
  // `credit !== 0` passing keeps a count that only goes down over its floor.
  if (expr.operator === '!==' || expr.operator === '!=') return zero(left ? expr.right : expr.left) ? { t, floor: true } : null;
  if (expr.operator === '<' || expr.operator === '<=') return { t, floor: left === null };
  if (expr.operator === '>' || expr.operator === '>=') return { t, floor: left !== null };
  return null;
}

/** The read field a compared value is (`row.balance`, or `row.balance - amount`), or null. */
export function comparedField(taint: Taint): string | null {
  if (!taint.computed) return taint.field;
  const { operator, field } = taint.computed;
  return operator === '+' || operator === '-' ? field : null;
}

/**
 * Remembers the bounds `node`'s test holds for its consequent on the reads it compares, and
 * (for a check that leaves) `row.credit === 0` as a floor the code after it keeps.
 */
export function noteHeldBounds(node: TSESTree.IfStatement, leaves: boolean, taintOf: (node: Node) => Taint | null): void {
  const visit = (test: Node): void => {
    const expr = unwrapExpression(test);
    if (expr.type === 'LogicalExpression' && expr.operator === '&&') {
      visit(expr.left);
      visit(expr.right);
    }
    if (expr.type !== 'BinaryExpression') return;
    const held = passingSide(expr, taintOf);
    const field = held && comparedField(held.t);
    if (held && field !== null) (held.t.read.checkedBounds ??= []).push({ field, check: node, floor: held.floor, held: true });
  };
  visit(node.test);
  const test = unwrapExpression(node.test);
  // `if (row.credit === 0) return`: what follows keeps `credit` over its floor.
  if (!leaves || test.type !== 'BinaryExpression' || (test.operator !== '===' && test.operator !== '==')) return;
  const t = taintOf(test.left) ?? taintOf(test.right);
  const field = t && (zero(test.left) || zero(test.right)) ? comparedField(t) : null;
  if (t && field !== null) (t.read.checkedBounds ??= []).push({ field, check: node, floor: true });
}
