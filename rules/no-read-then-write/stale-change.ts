// Whether a change written from a read is a lost update: the value written to a field depends on
// that field's own value as read (`balance: from.amount + to.balance`). A field computed only from
// other fields of the row (`commission: Math.round(row.amount * rate)`) is the same whichever
// replica writes it: a second writer computes it from the same row, and loses nothing.
import type { TSESTree } from '@typescript-eslint/utils';
import { IDENTITY_FIELD } from '../../src/knowledge/orm-reads-writes.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import type { FieldChange, ReadSite, Taint } from './model.js';

/** Whether `node` reads `field` by name (`row.field`, `row['field']`, a `field` binding), looking at most `budget` nodes deep. */
function readsField(node: TSESTree.Node, field: string, budget = { left: 200 }): boolean {
  if (--budget.left < 0) return true;
  if (node.type === 'MemberExpression' && (memberPropertyName(node) === field || qualifiedName(node) === field)) return true;
  if (node.type === 'Identifier') return node.name === field;
  for (const key of Object.keys(node) as (keyof TSESTree.Node)[]) {
    if (key === 'parent') continue;
    const child = node[key] as unknown;
    const children = Array.isArray(child) ? child : [child];
    for (const c of children) if (c && typeof c === 'object' && 'type' in c && readsField(c as TSESTree.Node, field, budget)) return true;
  }
  return false;
}

/** `purse.amount` read as one name (`purseAmount`): a field written under its holder's name and its own. */
function qualifiedName(node: TSESTree.MemberExpression): string | undefined {
  const property = memberPropertyName(node);
  if (node.object.type !== 'Identifier' || property === undefined) return undefined;
  return node.object.name + property.charAt(0).toUpperCase() + property.slice(1);
}

/** The value a change writes: `row.valueUsd = row.amount * rate` writes its right side (the target is written, not read). */
const valueOf = (change: FieldChange): TSESTree.Node =>
  change.node.type === 'AssignmentExpression' && change.node.operator === '=' ? change.node.right : change.node;

/**
 * Whether `change`, computed from `read`, writes back a stale value: a field computed from its own
 * read value, a whole object (field unknown) of one row, or any field whose value reads the field
 * written (`to.balance` among the terms), or — from one row — any field at all from a Redis or SQL
 * read. A row's key never goes stale.
 */
export function isStaleChange(read: ReadSite, change: FieldChange): boolean {
  if (change.readField === undefined) return true;
  if (change.readField === null) return !read.many && !read.guessed;
  if (change.readField === change.field || change.readField === lastPathSegment(change.field)) return true;
  if (IDENTITY_FIELD.test(change.readField)) return false;
  // A row of a list counts only when its value reads the field written (`interest: loan.interest +
  // loan.principal * rate`): a backfill or a rank derived into another field loses nothing.
  if (read.many) return change.field !== null && readsField(valueOf(change), change.field);
  // A Redis read's field is its key: any value computed from what it holds is that key's. A SQL
  // read's fields are its result's names, which an alias may rename (`SELECT balance AS bal`).
  if (read.redisKeys || read.candidates.includes('sql')) return true;
  if (change.field === null) return true;
  return readsField(valueOf(change), lastPathSegment(change.field) ?? change.field);
}

/** A Mongo path's own field (`'stats.points'` sets `points` of `stats`), or the name itself. */
function lastPathSegment(field: string | null): string | null {
  return field === null ? null : (field.split('.').pop() ?? field);
}

/**
 * A computed value set to a field of a local object (`patch.differenceAmount = row.externalAmount -
 * payment.amount`): the object writes it to that field, so the change is that field's (stale only
 * if it reads that field's own value), not the field it was computed from.
 */
export function setTo(taint: Taint, target: TSESTree.MemberExpression): Taint {
  const field = memberPropertyName(target);
  return taint.computed && field !== undefined ? { ...taint, computed: { ...taint.computed, target: field } } : taint;
}
