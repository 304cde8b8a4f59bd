// A write through a helper whose name says the field (`updateBalance(userId, next)`,
// `User.updateImpactPoints(user)`, helper-writes.ts): a change counts only when it is that
// field's, computed from its own value as read (`next = user.balance - amount`) or made on the
// row handed whole (`user.impact_points -= ratio`), or that field of the row changed so and handed
// alone (`updateImpactPoints(id, user.impact_points)`). Names match across spellings: `impactPoints`
// in the helper's name is `impact_points` on the row. A helper named for the very thing another
// helper read (`getMemberQuota(memberId)`, then `updateMemberQuota(memberId, uploadsUsed + 1)`), or
// whose name ends with it (`getTeamTokens`, then `updateTokens`), writes back the record that one
// returned: a change of any of its fields counts.
import type { FieldChange, ReadSite, Taint, WriteValue } from './model.js';
import { changeOf } from './taint.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { LOADER_VERBS } from '../../src/knowledge/orm-reads-writes.js';

/** A reading helper's verb (`getMemberQuota`, `loadSettings`): helper-reads.ts's loaders. */
const READ_HELPER_VERB = new RegExp(`^(?:${LOADER_VERBS.join('|')})(?=[A-Z])`);

const spelling = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();

/** Whether two field names are one field (`impactPoints`, `impact_points`). */
const sameField = (a: string | null | undefined, b: string | null | undefined): boolean =>
  a != null && b != null && spelling(a) === spelling(b);

/** Whether `read` is a call of a helper named for `named` (`getMemberQuota` for `memberQuota`). */
function readByPairedHelper(read: ReadSite, named: string | null): boolean {
  if (named === null || read.node.type !== 'CallExpression') return false;
  const callee = unwrapExpression(read.node.callee);
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  // …or for the thing it belongs to, then it (`getTeamTokens` for `credits`).
  return name !== undefined && READ_HELPER_VERB.test(name) && spelling(name.replace(READ_HELPER_VERB, '')).endsWith(spelling(named));
}

/** The changes of the named field `value` writes from taint `t`, each with the row's own spelling of the field. */
export function namedFieldChanges(value: WriteValue, t: Taint): { read: ReadSite; change: FieldChange; loc: undefined }[] {
  const named = value.field;
  const computed = changeOf(null, t);
  if (computed)
    return sameField(computed.readField, named) || readByPairedHelper(t.read, named)
      ? [{ read: t.read, change: { ...computed, field: computed.readField ?? named }, loc: undefined }]
      : [];
  // The row handed whole: its fields changed in JavaScript, the named one among them; or the named field
  // of a row changed in JavaScript (`user.points -= cost`, or an amount method's `user.spend(cost)`).
  if (t.field !== null && !sameField(t.field, named)) return [];
  return t.read.mutations
    .filter((m) => (m.field === null ? t.field !== null : sameField(m.field, named)))
    .map((m) => ({ read: t.read, change: { ...m, field: m.field ?? named }, loc: undefined }));
}
