// A list a row holds in one field, changed in JavaScript and written back to that field whole:
// grown in place (`account.groups.push(groupId)`, through a local: `const groups = account.groups;
// groups.push(id)`), built around it (`[...post.tags, tag]`), made from it (`post.tags.filter(…)`,
// `.map(…)`, a `Set` / `Map` built from it and changed: `new Set(shop.methods).add(m)`), or
// rebuilt from the rows its keys name (`Groups.find({ _id: { $in: account.groups } })`, kept or
// dropped, mapped back to keys), or one of its elements changed (`items[i].qty += n`), then `$set: { groups }`, `data: { tags }`. A second request that
// added its own element in between is overwritten. An
// object merged into a field (`{ ...user.settings, theme }`) is not followed: mostly a user's own
// settings, edited by one writer. Only a write of the value to the same
// field counts: a Mongoose `doc.groups.push(id); doc.save()` sends `$push` (but a spliced or
// reordered document array is sent whole with `$set`: a change the save flushes), and an ORM relation
// saved with its entity is diffed, so the growth alone is remembered apart from the entity's
// field changes (`ReadSite.grown`) and asked only by such a write.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { DOCUMENT_ARRAY_REWRITES, LIST_CHANGING_METHODS } from '../../src/knowledge/loaded-value-forms.js';
import { methodChainOf } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { FieldChange, ReadSite, Taint, WriteValue } from './model.js';

type TaintOf = (node: TSESTree.Node) => Taint | null;

/** Methods that change a list (or a collection made from it), in place or into a new one. */
const CHANGING_METHODS: ReadonlySet<string> = new Set(LIST_CHANGING_METHODS);
const DOCUMENT_REWRITES: ReadonlySet<string> = new Set(DOCUMENT_ARRAY_REWRITES);
/** Filter operators that match a row's key against a list (`{ _id: { $in: ids } }`, Prisma `{ id: { in: ids } }`, Drizzle `inArray(col, ids)`). */
const IN_KEYS: ReadonlySet<string> = new Set(['in', '$in']);
const IN_CALLS: ReadonlySet<string> = new Set(['inArray']);
const MAX_FILTER_DEPTH = 4;
/** A filter that may match keys against a list (`$in`, `in:`, `inArray(`): only then is a read asked which list. */
const KEYS_IN_LIST = /\$?in['"]?\s*:|inArray\s*\(/;

const change = (node: TSESTree.Node, field: string): FieldChange => ({ field, node, operator: null, operand: null, readField: field });

/** A field of a loaded row as it was read (not a value computed from it), or null. */
function loadedField(node: TSESTree.Node | null | undefined, taintOf: TaintOf): (Taint & { field: string }) | null {
  if (!node || node.type === 'SpreadElement') return null;
  const taint = taintOf(node);
  return taint && !taint.computed && !taint.read.redisKeys && taint.field !== null ? (taint as Taint & { field: string }) : null;
}

/** `row.list.push(x)` (or `.filter(…)`, `set.add(x)`) on a loaded field: remembered on its read, for a write of that field. Whether it was one. */
export function rememberGrowth(call: TSESTree.CallExpression, taintOf: TaintOf): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !CHANGING_METHODS.has(memberPropertyName(callee) ?? '')) return false;
  const taint = loadedField(callee.object, taintOf);
  if (!taint) return false;
  (taint.read.grown ??= []).push(change(call, taint.field));
  // A Mongoose document's own array (`doc.list.splice(…)`) spliced or reordered: its `save()` sends the whole array.
  const list = unwrapExpression(callee.object);
  const onDocument = list.type === 'MemberExpression' && taintOf(list.object)?.field === null;
  if (onDocument && DOCUMENT_REWRITES.has(memberPropertyName(callee) ?? '') && taint.read.candidates[0] === 'mongoose')
    taint.read.mutations.push(change(call, taint.field));
  return true;
}

/**
 * The loaded list field a read's filter matches keys against (`{ _id: { $in: account.groups } }`),
 * when another read loaded it: the rows read are that list's, and a list made from them and
 * written to the field rebuilds it.
 */
function keysListOf(call: TSESTree.CallExpression, self: ReadSite, taintOf: TaintOf): ReadSite['keysOf'] {
  let found: ReadSite['keysOf'];
  const loaded = (node: TSESTree.Node | undefined): void => {
    const taint = loadedField(node, taintOf);
    if (taint && taint.read !== self && !taint.read.many) found ??= { read: taint.read, field: taint.field };
  };
  const visit = (node: TSESTree.Node | undefined, depth: number): void => {
    if (!node || found || depth > MAX_FILTER_DEPTH) return;
    const expr = unwrapExpression(node);
    if (expr.type === 'ObjectExpression') {
      for (const property of expr.properties) {
        if (property.type !== 'Property') continue;
        if (IN_KEYS.has(propertyKeyName(property) ?? '')) loaded(property.value);
        else visit(property.value, depth + 1);
      }
    } else if (expr.type === 'ArrayExpression') {
      for (const element of expr.elements) if (element) visit(element, depth + 1);
    } else if (expr.type === 'CallExpression') {
      const callee = unwrapExpression(expr.callee);
      if (callee.type === 'Identifier' && IN_CALLS.has(callee.name)) loaded(expr.arguments[1]);
      else for (const argument of expr.arguments) visit(argument, depth + 1);
    }
  };
  for (const link of methodChainOf(call).links) for (const argument of link.call.arguments) visit(argument, 0);
  return found;
}

/** Sets `site.keysOf` when the read's filter matches keys against a loaded list field (a filter that cannot be followed names none). */
export function noteKeysList(site: ReadSite, node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>, taintOf: TaintOf): void {
  if (site.redisKeys || site.pending || node.type !== 'CallExpression' || !KEYS_IN_LIST.test(sourceCode.getText(node))) return;
  try {
    site.keysOf = keysListOf(node, site, taintOf);
  } catch {
    // A shape we did not foresee names no list.
  }
}

/**
 * A change the read remembers on an element of its list field (`items[i].qty += n`, `const line =
 * cart.lines.find(…); line.qty -= 1`): the list written back whole carries it.
 */
function elementChangeOf(read: ReadSite, field: string, taintOf: TaintOf): FieldChange | undefined {
  const found = read.mutations.find((m) => {
    const target = m.node.type === 'AssignmentExpression' ? m.node.left : m.node.type === 'UpdateExpression' ? m.node.argument : null;
    const element = target?.type === 'MemberExpression' ? unwrapExpression(target.object) : null;
    if (!element || (element.type !== 'Identifier' && !(element.type === 'MemberExpression' && element.computed))) return false;
    return loadedField(element, taintOf)?.field === field;
  });
  return found && { ...found, field, readField: field };
}

/** The change when `value` writes a loaded list back to its field grown in place, or built around itself; null otherwise. */
export function listChangeOf(value: WriteValue, taint: Taint, taintOf: TaintOf): FieldChange | null {
  if (value.field === null) return null;
  if (!taint.computed && taint.field === value.field) {
    const grown = taint.read.grown?.find((g) => g.field === value.field) ?? elementChangeOf(taint.read, value.field, taintOf);
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

/** A list made from the rows a loaded list field names, written back to that field: the change, on the read that loaded it. */
export function rebuiltListOf(value: WriteValue, taint: Taint): { read: ReadSite; change: FieldChange } | null {
  const origin = taint.read.keysOf;
  if (!origin || value.field !== origin.field || origin.read.locked) return null;
  return { read: origin.read, change: change(value.value, origin.field) };
}
