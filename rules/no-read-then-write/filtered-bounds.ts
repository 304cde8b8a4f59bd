// A bound a read's filter carries, checked by the row's absence: `findFirst({ where: { productId,
// count: { gt: 0 } } })`, then `if (!stock) throw …`, then `count: { decrement: 1 }` on that row
// without the bound. Two requests both find the row with one left and both take it: the count goes
// below the bound the read asked for. Remembered on the read like a bound compared in JavaScript
// (bound-checks.ts), so checked-bounds.ts judges the write the same way (a filter that names the
// field, a state transition, a lock keep it quiet). Prisma (`gt`, `gte`, `lt`, `lte`) and Mongo
// (`$gt`, …) operators, in the filter's top level or Prisma's `where`.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadSite, Taint } from './model.js';

/** Operators that keep a value above (a floor) or below (a ceiling) a bound. */
const FLOORS: ReadonlySet<string> = new Set(['gt', 'gte', '$gt', '$gte']);
const CEILINGS: ReadonlySet<string> = new Set(['lt', 'lte', '$lt', '$lte']);

function propertiesOf(node: TSESTree.Node | undefined): TSESTree.Property[] {
  const expr = node && node.type !== 'SpreadElement' ? unwrapExpression(node) : undefined;
  return expr?.type === 'ObjectExpression' ? expr.properties.filter((p): p is TSESTree.Property => p.type === 'Property') : [];
}

/** `!row`, `row === null`, `row == null`, `row === undefined`: the name tested for a missing row, or null. */
function missingRowTested(test: TSESTree.Expression): TSESTree.Node | null {
  const expr = unwrapExpression(test);
  if (expr.type === 'UnaryExpression' && expr.operator === '!') return expr.argument;
  if (expr.type !== 'BinaryExpression' || !['===', '=='].includes(expr.operator) || expr.left.type === 'PrivateIdentifier') return null;
  const right = unwrapExpression(expr.right);
  const empty = (right.type === 'Literal' && right.value === null) || (right.type === 'Identifier' && right.name === 'undefined');
  return empty ? expr.left : null;
}

/** The bounds of a read's filter: `{ field, floor }` for each field compared by an operator. */
function filterBounds(read: ReadSite): { field: string; floor: boolean }[] {
  if (read.node.type !== 'CallExpression') return [];
  const filter = read.node.arguments[0];
  const where = propertiesOf(filter).find((p) => propertyKeyName(p) === 'where');
  const out: { field: string; floor: boolean }[] = [];
  for (const property of propertiesOf(where ? where.value : filter)) {
    const field = propertyKeyName(property);
    if (field === undefined) continue;
    for (const op of propertiesOf(property.value)) {
      const name = propertyKeyName(op) ?? '';
      if (FLOORS.has(name) || CEILINGS.has(name)) out.push({ field, floor: FLOORS.has(name) });
    }
  }
  return out;
}

/** `if (!row) throw …` (the branch leaves) on a row read with a bound in its filter: remembers the bound as checked there. */
export function noteFilteredBounds(node: TSESTree.IfStatement, leaves: boolean, taintOf: (node: TSESTree.Node) => Taint | null): void {
  const tested = leaves && node.alternate === null ? missingRowTested(node.test) : null;
  const t = tested ? taintOf(tested) : null;
  if (!t || t.computed || t.field !== null) return;
  for (const bound of filterBounds(t.read)) (t.read.checkedBounds ??= []).push({ ...bound, check: node });
}
