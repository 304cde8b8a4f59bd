// A copy of a loaded row with some fields changed: `{ ...row, count: row.count + 1 }`,
// `Object.assign({}, row, { balance: row.balance - amount })`, a class built from such an object
// (`new Account({ ...row, … })`) or a repository's entity made from it (`repo.create({ ...row, … })`,
// not awaited; `await repo.preload({ id, ...row })`). A copy of a row whose fields were changed
// before (`row.views += 1`) carries those changes. Saved whole, the copy writes the row back with those fields: the same lost update
// as `row.count++; save(row)`. The copy is given a read of its own (the row's, with the changed
// fields as its mutations), so it is saved, updated and reported like the loaded row.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { IDENTITY_FIELD } from '../../src/knowledge/orm-reads-writes.js';
import type { FieldChange, Taint } from './model.js';
import { settled } from './pending-reads.js';
import { changeOf } from './taint.js';

type TaintOf = (node: TSESTree.Node) => Taint | null;

const MAX_DEPTH = 4;

/** `Object.assign(…)`. */
export function isObjectAssign(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  return (
    callee.type === 'MemberExpression' &&
    memberPropertyName(callee) === 'assign' &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Object'
  );
}

/** The loaded row `node` is, as a whole (not a field, not a computed value). */
function loadedRow(node: TSESTree.Node, taintOf: TaintOf): Taint | null {
  const t = settled(taintOf(node));
  return t && !t.computed && t.field === null ? t : null;
}

/** The parts of a copy: the rows spread or assigned into it, and the fields it sets (`null`: a constructor's argument). */
interface CopyParts {
  rows: Taint[];
  fields: { field: string | null; value: TSESTree.Node }[];
}

/**
 * `new Wallet(row.id, row.balance - amount)`: a class built from the row's key and values — the
 * row rebuilt, its fields named by the constructor's parameters, which are out of sight. Without
 * the key (`new LedgerEntry(row.balance - amount)`) it is a new row.
 */
function addConstructorArguments(parts: CopyParts, args: TSESTree.CallExpressionArgument[], taintOf: TaintOf): boolean {
  let key: Taint | null = null;
  for (const argument of args) {
    if (argument.type === 'SpreadElement') return false;
    const t = settled(taintOf(argument));
    if (t && !t.computed && t.field !== null && IDENTITY_FIELD.test(t.field)) key ??= t;
    else parts.fields.push({ field: null, value: argument });
  }
  if (key) parts.rows.push(key);
  return key !== null;
}

function addObject(parts: CopyParts, object: TSESTree.ObjectExpression, taintOf: TaintOf, depth: number): void {
  for (const property of object.properties) {
    if (property.type === 'SpreadElement') {
      const row = loadedRow(property.argument, taintOf);
      if (row) parts.rows.push(row);
      else addCopy(parts, property.argument, taintOf, depth + 1);
      continue;
    }
    if (property.computed || property.key.type !== 'Identifier') continue;
    parts.fields.push({ field: property.key.name, value: property.value });
  }
}

/** Adds what `node` puts into a copy; false when it is no copy. */
function addCopy(parts: CopyParts, node: TSESTree.Node, taintOf: TaintOf, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const expr = unwrapExpression(node);
  if (expr.type === 'ObjectExpression') {
    addObject(parts, expr, taintOf, depth);
    return true;
  }
  if (expr.type === 'NewExpression') {
    // `new Account({ ...row, balance })`: a class built from the copy.
    const [first] = expr.arguments;
    if (expr.arguments.length === 1 && first && first.type !== 'SpreadElement' && addCopy(parts, first, taintOf, depth + 1)) return true;
    return addConstructorArguments(parts, expr.arguments, taintOf);
  }
  if (expr.type !== 'CallExpression') return false;
  const [first] = expr.arguments;
  if (isObjectAssign(expr)) {
    // `Object.assign(row, { … })` changes the row itself (entity-changes.ts); into a fresh object, it copies.
    if (!first || first.type === 'SpreadElement' || loadedRow(first, taintOf)) return false;
    for (const argument of expr.arguments) {
      if (argument.type === 'SpreadElement') continue;
      const row = loadedRow(argument, taintOf);
      if (row) parts.rows.push(row);
      else addCopy(parts, argument, taintOf, depth + 1);
    }
    return true;
  }
  // `repo.create({ ...row, … })` not awaited: TypeORM's entity made from the object (an awaited `create` inserts a row);
  // `await repo.preload({ id, ...row })`: the stored entity with the object's values laid over it.
  const callee = unwrapExpression(expr.callee);
  const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  return (
    ((method === 'create' && expr.parent?.type !== 'AwaitExpression') || method === 'preload') &&
    expr.arguments.length === 1 &&
    !!first &&
    first.type !== 'SpreadElement' &&
    addCopy(parts, first, taintOf, depth + 1)
  );
}

/**
 * The taint of `node` when it is a copy of one loaded row with fields computed from that row:
 * the row, with a read of its own whose mutations are those fields. `null` for anything else (a
 * copy that changes nothing, or whose changes come from another row, is the plain taint's).
 */
export function rowCopyOf(node: TSESTree.Node, taintOf: TaintOf): Taint | null {
  const outer = unwrapExpression(node);
  // `await repo.preload(…)`: the awaited entity (an awaited `create` is an insert, turned away in addCopy).
  const expr = outer.type === 'AwaitExpression' ? unwrapExpression(outer.argument) : outer;
  if (expr.type !== 'ObjectExpression' && expr.type !== 'CallExpression' && expr.type !== 'NewExpression') return null;
  const parts: CopyParts = { rows: [], fields: [] };
  if (!addCopy(parts, expr, taintOf, 0)) return null;
  const row = parts.rows[0];
  if (!row || parts.rows.some((r) => r.read !== row.read)) return null;
  const mutations: FieldChange[] = [];
  for (const { field, value } of parts.fields) {
    const t = settled(taintOf(value));
    const change = t && t.read === row.read ? changeOf(field, t) : null;
    if (change) mutations.push(change);
  }
  // A copy of a row changed before it was copied (`row.views += 1; repo.preload({ id, ...row })`) carries those changes.
  if (mutations.length === 0) return row.read.mutations.length > 0 && parts.fields.every((f) => f.field !== null) ? row : null;
  return { read: { ...row.read, mutations: [...row.read.mutations, ...mutations] }, field: null, computed: null };
}
