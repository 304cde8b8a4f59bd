// A streak changed once per period (src/knowledge/period-counters.ts): every field the write
// changes from the read counts consecutive periods, and the same change stamps the row with the
// time, in the values the write sends (`{ currentStreak: n + 1, lastViewAt: viewTime }`) or on the
// entity it saves (`user.streakLength += 1; user.streakLastUpdatedAt = now; await user.save()`).
// Concurrent first events of a period write the same next value: nothing is lost.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { CURRENT_TIME_CALLEES, PERIOD_COUNTER_FIELD, TIME_NAME } from '../../src/knowledge/period-counters.js';
import type { ReadThenWriteFacts } from './model.js';

type Node = TSESTree.Node;
type VisitorKeys = TSESLint.SourceCode.VisitorKeys;

/** Whether `node` is the current time, or a name or member that holds one (`now`, `payload.timestamp` is not). */
function isTime(node: Node): boolean {
  const expr = unwrapExpression(node, { await: true });
  if (expr.type === 'NewExpression' || expr.type === 'CallExpression') {
    const callee = unwrapExpression(expr.callee);
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
    const owner = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : undefined;
    return (
      (name !== undefined && CURRENT_TIME_CALLEES.has(name)) ||
      (owner?.type === 'Identifier' && CURRENT_TIME_CALLEES.has(owner.name) && (name === 'now' || name === 'utc'))
    );
  }
  if (expr.type === 'Identifier') return TIME_NAME.test(expr.name);
  if (expr.type === 'ConditionalExpression') return isTime(expr.consequent) || isTime(expr.alternate);
  return false;
}

/** The object a change is made on (`user` in `user.streakLength += 1`), when it is a name. */
function changedObject(node: Node): string | undefined {
  const target = node.type === 'AssignmentExpression' ? node.left : node.type === 'UpdateExpression' ? node.argument : undefined;
  if (target?.type !== 'MemberExpression') return undefined;
  const object = unwrapExpression(target.object);
  return object.type === 'Identifier' ? object.name : undefined;
}

/** Whether the write's values stamp a time (`lastViewAt: viewTime`). */
function sendsTime(data: Node | undefined, counters: readonly string[]): boolean {
  const expr = data && unwrapExpression(data);
  if (expr?.type !== 'ObjectExpression') return false;
  return expr.properties.some((p) => {
    if (p.type !== 'Property') return false;
    const key = propertyKeyName(p);
    if (key === '$set') return sendsTime(p.value, counters);
    return key !== undefined && !counters.includes(key) && isTime(p.value);
  });
}

/** Whether the function of the write stamps a time on `object` (`user.streakLastUpdatedAt = now`). */
function stampsObject(write: Node, object: string, counters: readonly string[], keys: VisitorKeys): boolean {
  const fn = enclosingFunction(write);
  if (!fn?.body) return false;
  for (const node of descendants(fn.body, keys)) {
    if (node.type !== 'AssignmentExpression' || node.operator !== '=' || node.left.type !== 'MemberExpression') continue;
    const target = unwrapExpression(node.left.object);
    const field = memberPropertyName(node.left);
    if (target.type === 'Identifier' && target.name === object && field !== undefined && !counters.includes(field) && isTime(node.right))
      return true;
  }
  return false;
}

/** Whether the finding only changes period counters, stamped with the time in the same write. */
export function periodCounterChange(facts: ReadThenWriteFacts, keys: VisitorKeys): boolean {
  if (facts.fields.length === 0 || !facts.fields.every((field) => PERIOD_COUNTER_FIELD.test(field))) return false;
  if (sendsTime(facts.writeShape.data, facts.fields)) return true;
  const objects = new Set(facts.changes.flatMap((c) => changedObject(c.node) ?? []));
  return [...objects].some((object) => stampsObject(facts.write, object, facts.fields, keys));
}
