// A sweep by time written row by row: a loop that checks each row's time against now and moves the
// rows whose time has passed on — `for (const game of open) { if (game.startsAt < new Date()) {
// game.status = 'closed'; await game.save(); } }` — and does nothing else with them: no call but the
// row's own `save()` (and a log line), every value written a constant or a stamp (`'closed'`, `new
// Date()`, `Status.CLOSED`). It is `UPDATE … SET status = 'closed' WHERE status = 'open' AND
// starts_at < now()` in memory (a sweep, prune.ts): the write is the whole action, a second replica
// writes the very same values and no work runs twice. A loop that sends, publishes, charges or calls
// anything else on the way, writes a value worked out from the row, or marks rows with no time
// checked (a queue's rows marked done) stays a claim.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { LOG_METHODS } from '../../src/knowledge/work-effects.js';
import { isStampValue } from './claim-shapes.js';
import type { ActedOn } from './not-a-claim.js';
import { rootName } from './row-names.js';

type Node = TSESTree.Node;

/** Now: `new Date()`, `Date.now()`. */
const isNow = (node: Node): boolean =>
  (node.type === 'NewExpression' && node.callee.type === 'Identifier' && node.callee.name === 'Date' && node.arguments.length === 0) ||
  (node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    node.callee.object.type === 'Identifier' &&
    node.callee.object.name === 'Date' &&
    memberPropertyName(node.callee) === 'now');

/** A test that calls nothing but asks for now (`game.startsAt < new Date()`, `!row.closed`). */
function callsNothing(node: Node): boolean {
  const value = unwrapExpression(node);
  if (isNow(value)) return true;
  switch (value.type) {
    case 'BinaryExpression':
    case 'LogicalExpression':
      return callsNothing(value.left) && callsNothing(value.right);
    case 'UnaryExpression':
      return callsNothing(value.argument);
    case 'MemberExpression':
    case 'Identifier':
    case 'Literal':
      return true;
    default:
      return false;
  }
}

/** Whether `test` compares a row's field with now (`game.startsAt < new Date()`, `Date.now() >= row.expiresAt`). */
function timePassed(test: Node, rows: readonly string[]): boolean {
  const value = unwrapExpression(test);
  if (value.type === 'LogicalExpression') return timePassed(value.left, rows) || timePassed(value.right, rows);
  if (value.type !== 'BinaryExpression' || !['<', '<=', '>', '>='].includes(value.operator)) return false;
  const ofRow = (n: Node): boolean => n.type === 'MemberExpression' && rows.includes(rootName(n) ?? '\0');
  return (ofRow(value.left) && isNow(value.right)) || (isNow(value.left) && ofRow(value.right));
}

/** Whether `statement` only sets the row's fields to constants, saves the row, logs, or leaves. */
function onlyFlips(statement: Node, rows: readonly string[]): boolean {
  switch (statement.type) {
    case 'BlockStatement':
      return statement.body.every((s) => onlyFlips(s, rows));
    case 'IfStatement':
      return (
        callsNothing(statement.test) &&
        onlyFlips(statement.consequent, rows) &&
        (!statement.alternate || onlyFlips(statement.alternate, rows))
      );
    case 'ContinueStatement':
    case 'EmptyStatement':
      return true;
    case 'ReturnStatement':
      return !statement.argument;
    case 'ExpressionStatement':
      break;
    default:
      return false;
  }
  const expression = unwrapExpression(statement.expression, { await: true });
  if (expression.type === 'AssignmentExpression')
    return (
      expression.left.type === 'MemberExpression' && rows.includes(rootName(expression.left) ?? '\0') && isStampValue(expression.right)
    );
  if (expression.type !== 'CallExpression' || expression.callee.type !== 'MemberExpression') return false;
  const method = memberPropertyName(expression.callee);
  if (method === 'save') return expression.arguments.length === 0 && rows.includes(rootName(expression.callee.object) ?? '\0');
  return method !== undefined && LOG_METHODS.includes(method);
}

/** Whether the loop of `region` only flips each row's state and saves it with `update` (`row.save()`), nothing else. */
export function flipsOnly(region: ActedOn, update: Node): boolean {
  if (!region.loop || region.marks || update.type !== 'CallExpression' || update.callee.type !== 'MemberExpression') return false;
  if (memberPropertyName(update.callee) !== 'save') return false;
  let checked = false;
  for (let up: Node | undefined = update.parent; up && up !== region.region; up = up.parent)
    if (up.type === 'IfStatement' && timePassed(up.test, region.names)) checked = true;
  return checked && onlyFlips(region.region, region.names);
}
