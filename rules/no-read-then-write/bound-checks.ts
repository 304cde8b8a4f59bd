// `if (row.balance < amount) throw …`: a bound check on a value read, remembered on its read so
// the `atomic-counters` codemod can move the bound into the write's filter. A check that leaves
// the function (or the loop) is also remembered by field and side (checked-bounds.ts): a change
// made in the database after it, without the bound in its filter, can break the bound.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { exits } from './control-flow.js';
import { noteFilteredBounds } from './filtered-bounds.js';
import { comparedField, noteHeldBounds } from './bound-guards.js';
import type { Taint } from './model.js';

const COMPARISONS = new Set(['<', '<=', '>', '>=']);
const BELOW = new Set(['<', '<=']);

/** Remembers `node` on the read of each value its test compares (`a < b`, through `&&` / `||`). */
export function noteBoundChecks(node: TSESTree.IfStatement, taintOf: (node: TSESTree.Node) => Taint | null): void {
  // A check whose branch leaves guards what follows it; one with an `else` guards that branch.
  const leaves = exits(node.consequent) || node.alternate !== null;
  const visit = (test: TSESTree.Node): void => {
    const expr = unwrapExpression(test);
    if (expr.type === 'LogicalExpression') {
      visit(expr.left);
      visit(expr.right);
    } else if (expr.type === 'BinaryExpression' && COMPARISONS.has(expr.operator)) {
      const left = expr.left.type === 'PrivateIdentifier' ? null : taintOf(expr.left);
      const t = left ?? taintOf(expr.right);
      if (!t) return;
      if (!t.read.boundChecks.includes(node)) t.read.boundChecks.push(node);
      const field = leaves ? comparedField(t) : null;
      // `balance < amount` (or `amount > balance`) leaves when the value is too low: a floor.
      if (field !== null) (t.read.checkedBounds ??= []).push({ field, check: node, floor: (left !== null) === BELOW.has(expr.operator) });
    }
  };
  visit(node.test);
  // `if (!row) throw` on a row read with a bound in its filter (filtered-bounds.ts).
  noteFilteredBounds(node, leaves, taintOf);
  // `if (row.used < cap) { …write… }`: the bound held for the consequent (bound-guards.ts).
  noteHeldBounds(node, leaves, taintOf);
}
