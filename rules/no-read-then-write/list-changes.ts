// A list a row holds in one field, changed in JavaScript and written back to that field whole:
// grown in place (`account.groups.push(groupId)`, through a local: `const groups = account.groups;
// groups.push(id)`), or built around it (`[...post.tags, tag]`), then `$set: { groups }`,
// `data: { tags }`. A second request that added its own element in between is overwritten. An
// object merged into a field (`{ ...user.settings, theme }`) is not followed: mostly a user's own
// settings, edited by one writer. Only a write of the value to the same
// field counts: a Mongoose `doc.groups.push(id); doc.save()` sends `$push`, and an ORM relation
// saved with its entity is diffed, so the growth alone is remembered apart from the entity's
// field changes (`ReadSite.grown`) and asked only by such a write.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { FieldChange, Taint, WriteValue } from './model.js';

type TaintOf = (node: TSESTree.Node) => Taint | null;

/** Array methods that add to the array they are called on. */
const GROWING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'splice']);

const change = (node: TSESTree.Node, field: string): FieldChange => ({ field, node, operator: null, operand: null, readField: field });

/** A field of a loaded row as it was read (not a value computed from it), or null. */
function loadedField(node: TSESTree.Node | null | undefined, taintOf: TaintOf): (Taint & { field: string }) | null {
  if (!node || node.type === 'SpreadElement') return null;
  const taint = taintOf(node);
  return taint && !taint.computed && !taint.read.redisKeys && taint.field !== null ? (taint as Taint & { field: string }) : null;
}

/** `row.list.push(x)` on a loaded field: remembered on its read, for a write of that field. Whether it was one. */
export function rememberGrowth(call: TSESTree.CallExpression, taintOf: TaintOf): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !GROWING_METHODS.has(memberPropertyName(callee) ?? '')) return false;
  const taint = loadedField(callee.object, taintOf);
  if (!taint) return false;
  (taint.read.grown ??= []).push(change(call, taint.field));
  return true;
}

/** The change when `value` writes a loaded list back to its field grown in place, or built around itself; null otherwise. */
export function listChangeOf(value: WriteValue, taint: Taint, taintOf: TaintOf): FieldChange | null {
  if (value.field === null) return null;
  if (!taint.computed && taint.field === value.field) {
    const grown = taint.read.grown?.find((g) => g.field === value.field);
    if (grown) return grown;
  }
  const expr = unwrapExpression(value.value);
  if (expr.type !== 'ArrayExpression' || expr.elements.length < 2) return null;
  const parts = expr.elements.map((e) => (e?.type === 'SpreadElement' ? e.argument : null));
  const around = parts.some((part) => {
    const t = loadedField(part, taintOf);
    return t !== null && t.read === taint.read && t.field === value.field;
  });
  return around ? change(expr, value.field) : null;
}
