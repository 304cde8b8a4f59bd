// A state checked on the row read, then set and saved without that condition (check-then-act):
//
//   const pass = await Pass.findOne({ code });
//   if (pass.redeemed) return res.status(409).end();
//   pass.redeemed = true;
//   await pass.save();
//
// Two requests (or replicas) both read `redeemed: false`, both pass the check and both act: the
// pass admits twice, a paid order is cancelled, a refund runs twice. Reported at the save when the
// field set (to a constant: a literal or an enum member) is one the check read from the same row,
// the check leaves before the set (or holds it in its branch), and the row is saved whole (its own
// `save()`, a repository's `save(row)`). A write whose filter carries the old state is a
// conditional update, and is not such a save; a read that locks its row, and the other exemptions
// of the rule, apply.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction, isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { blockHolds, contains, passedCheck } from './control-flow.js';
import { countedTransitions, noteTransitions } from './counted-transitions.js';
import type { PendingFinding, ReadSite, Taint, WriteSite } from './model.js';
import { noteBoundChecks } from './bound-checks.js';
import { namesField, uncheckedBoundChanges } from './checked-bounds.js';
import { VERSION_COLUMN } from '../../src/knowledge/sql.js';
import { IN_PROGRESS_VALUE, isRunningFlag } from '../../src/knowledge/running-flags.js';
import { IDEMPOTENT_MARK_VALUE, isIdempotentMark } from '../../src/knowledge/idempotent-marks.js';
import { isLoopStatement } from '../../analysis/ast/loop-statement.js';

type Node = TSESTree.Node;
type TaintOf = (node: Node) => Taint | null;

interface StateCheck {
  field: string;
  check: TSESTree.IfStatement;
}

const EQUALITIES: ReadonlySet<string> = new Set(['===', '!==', '==', '!=']);
/** States checked on each read, kept beside the read (the engine's reads live as long as the file's walk). */
const checkedStates = new WeakMap<ReadSite, StateCheck[]>();

/** `row.status` of a whole row read: its field. */
function rowField(node: Node, taintOf: TaintOf): { read: ReadSite; field: string } | undefined {
  const expr = unwrapExpression(node);
  if (expr.type !== 'MemberExpression') return undefined;
  const field = memberPropertyName(expr);
  const owner = taintOf(expr.object);
  if (field === undefined || !owner || owner.computed || owner.field !== null || owner.read.many) return undefined;
  return { read: owner.read, field };
}

/** Remembers the fields of a row a check tests (`if (row.used)`, `if (row.status !== 'open')`, through `!`, `&&`, `||`). */
export function noteStateChecks(node: TSESTree.IfStatement, taintOf: TaintOf): void {
  const visit = (test: Node): void => {
    const expr = unwrapExpression(test);
    if (expr.type === 'LogicalExpression') return void (visit(expr.left), visit(expr.right));
    if (expr.type === 'UnaryExpression' && expr.operator === '!') return visit(expr.argument);
    const tested = expr.type === 'BinaryExpression' && EQUALITIES.has(expr.operator) ? [expr.left, expr.right] : [expr];
    for (const side of tested) {
      const found = side.type === 'PrivateIdentifier' ? undefined : rowField(side, taintOf);
      if (!found) continue;
      const list = checkedStates.get(found.read) ?? [];
      list.push({ field: found.field, check: node });
      checkedStates.set(found.read, list);
    }
  };
  visit(node.test);
}

/** A constant: a literal but `null`, a template without values, an enum's member (`OrderStatus.Cancelled`). */
function constant(node: Node): boolean {
  const expr = unwrapExpression(node);
  // `null` clears the field (a soft delete undone): every writer writes the same nothing.
  if (expr.type === 'Literal') return expr.value !== null;
  if (expr.type === 'TemplateLiteral') return expr.expressions.length === 0;
  return expr.type === 'MemberExpression' && !expr.computed && expr.object.type === 'Identifier' && /^[A-Z]/.test(expr.object.name);
}

/**
 * A set that is no check-then-act of this rule: a running flag or an in-progress state (`running`,
 * `'processing'`: a claim of a run, require-atomic-claim's finding), or an idempotent mark (a row
 * archived or read twice is archived or read once: idempotent-marks.ts).
 */
function notActedOn(field: string, value: Node): boolean {
  if (isRunningFlag(field) || isIdempotentMark(field)) return true;
  const expr = unwrapExpression(value);
  const word = expr.type === 'Literal' ? String(expr.value) : expr.type === 'MemberExpression' ? (memberPropertyName(expr) ?? '') : '';
  return IN_PROGRESS_VALUE.test(word) || IDEMPOTENT_MARK_VALUE.test(word);
}

/**
 * Whether the set writes the value the passed check already demanded (`if (user.status !== 'active')
 * throw …; update(id, { password, status: 'active' })`): the row stays in its state, nothing moves.
 */
function keepsCheckedValue(check: TSESTree.IfStatement, field: string, value: Node, write: Node): boolean {
  const set = unwrapExpression(value);
  if (set.type !== 'Literal') return false;
  // Held in the check's branch, every `&&` part holds; passed after it, no `||` part does.
  const held = contains(check.consequent, write);
  const [joiner, pins] = held ? ['&&', ['===', '==']] : ['||', ['!==', '!=']];
  const visit = (test: Node): boolean => {
    const expr = unwrapExpression(test);
    if (expr.type === 'LogicalExpression') return expr.operator === joiner && (visit(expr.left) || visit(expr.right));
    if (expr.type !== 'BinaryExpression' || !pins.includes(expr.operator) || expr.left.type === 'PrivateIdentifier') return false;
    const pairs: [Node, Node][] = [
      [expr.left, expr.right],
      [expr.right, expr.left],
    ];
    return pairs.some(([side, other]) => {
      const member = unwrapExpression(side);
      const pinned = unwrapExpression(other);
      return (
        member.type === 'MemberExpression' &&
        memberPropertyName(member) === field &&
        pinned.type === 'Literal' &&
        pinned.value === set.value
      );
    });
  };
  return visit(check.test);
}

/**
 * Whether the write is not the check's act on one row read by its key: the check runs in a loop the
 * read is outside of (each row of a list read: a queue of pending rows, require-atomic-claim's), or the
 * write sits on a failure path (a `catch` the check is not in).
 */
function notOnCheckedPath(check: Node, write: Node, read: Node): boolean {
  for (let node = check.parent; node && !isFunctionNode(node); node = node.parent)
    if (isLoopStatement(node) && !contains(node, read)) return true;
  for (let node = write.parent; node && !isFunctionNode(node); node = node.parent)
    if (node.type === 'CatchClause' && !contains(node, check)) return true;
  return false;
}

/** Whether `at` runs only once `check` passed: after a check whose branch leaves, or inside one of its branches. */
const guardedBy = passedCheck;

type VisitorKeys = Parameters<typeof descendants>[1];

/**
 * The pending finding of a save of a whole row (`row.save()`, `repo.save(row)`) when a field a
 * check read from that row was set to a constant after the check passed, in the check's function.
 */
export function checkedStateChanges(
  write: WriteSite,
  sameModel: (read: ReadSite) => boolean,
  taintOf: TaintOf,
  visitorKeys: VisitorKeys,
): PendingFinding[] {
  for (const entity of write.entities) {
    const owner = taintOf(entity);
    if (!owner || owner.computed || owner.field !== null || owner.read.locked || !sameModel(owner.read)) continue;
    const read = owner.read;
    for (const { field, check } of checkedStates.get(read) ?? []) {
      const fn = enclosingFunction(check);
      if (!fn || !contains(fn, write.node) || !guardedBy(check, write.node) || notOnCheckedPath(check, write.node, read.node)) continue;
      const set = setBetween(
        fn,
        check,
        write.node,
        (node) => {
          const target = node.left.type === 'MemberExpression' ? rowField(node.left, taintOf) : undefined;
          return (
            target?.read === read &&
            target.field === field &&
            constant(node.right) &&
            !notActedOn(field, node.right) &&
            !keepsCheckedValue(check, field, node.right, write.node)
          );
        },
        visitorKeys,
      );
      if (set)
        return [
          {
            read,
            write,
            changes: [{ field, node: set, operator: null, operand: null }],
            loc: undefined,
            checkedBound: check,
            checkedState: true,
          },
        ];
    }
  }
  return [];
}

/**
 * The pending finding of an update by key (`Order.update({ status: 'paid' }, { where: { id } })`,
 * Prisma `update({ where: { id }, data: { status } })`, `$set`) that sets to a constant a field a
 * check read from one row of the same model, after the check passed: the filter does not carry the
 * state (a conditional update), a version or the field.
 */
function checkedStateUpdates(
  write: WriteSite,
  reads: Iterable<ReadSite | null>,
  sameModel: (read: ReadSite) => boolean,
  visitorKeys: VisitorKeys,
): PendingFinding[] {
  if (write.node.type !== 'CallExpression' || write.shape.helper || write.conditions.length === 0) return [];
  const constants = write.values.filter(
    (v) => v.field !== null && !v.redisKey && !v.named && constant(v.value) && !notActedOn(v.field, v.value),
  );
  if (constants.length === 0 || write.conditions.some((c) => namesVersion(c, visitorKeys))) return [];
  for (const read of reads) {
    if (!read || read.many || read.locked || read.redisKeys || !sameModel(read)) continue;
    for (const { field, check } of checkedStates.get(read) ?? []) {
      const value = constants.find((v) => v.field === field);
      if (!value || write.conditions.some((c) => namesField(c, field))) continue;
      const fn = enclosingFunction(check);
      if (!fn || !contains(fn, write.node) || !guardedBy(check, write.node) || notOnCheckedPath(check, write.node, read.node)) continue;
      if (keepsCheckedValue(check, field, value.value, write.node)) continue;
      const change = { field, node: value.value, operator: null, operand: null };
      return [{ read, write, changes: [change], loc: value.loc, checkedBound: check, checkedState: true }];
    }
  }
  return [];
}

/** Whether a filter names a version column (`version`, `updatedAt`): an optimistic update, checked by the database. */
const namesVersion = (filter: Node, visitorKeys: VisitorKeys): boolean =>
  [filter, ...descendants(filter, visitorKeys)].some((n) => n.type === 'Property' && VERSION_COLUMN.test(propertyKeyName(n) ?? ''));

/** Whether the block holding `node` holds `write` too: a set in a sibling branch (`if (ok) { … } else { …; save }`) is not on its way. */
const onWayTo = blockHolds;

/** The first `x.f = …` in `fn` that `matches`, after the check passed and before the write. */
function setBetween(
  fn: Node,
  check: TSESTree.IfStatement,
  write: Node,
  matches: (node: TSESTree.AssignmentExpression) => boolean,
  visitorKeys: VisitorKeys,
): TSESTree.AssignmentExpression | undefined {
  for (const node of descendants(fn, visitorKeys)) {
    if (node.range[0] >= write.range[0]) break;
    if (
      node.type === 'AssignmentExpression' &&
      node.operator === '=' &&
      !contains(check.test, node) &&
      guardedBy(check, node) &&
      onWayTo(node, write) &&
      matches(node)
    )
      return node;
  }
  return undefined;
}

/** The checks an `if` makes on a read's values: bounds (bound-checks.ts) and states. */
export function noteChecks(node: TSESTree.IfStatement, taintOf: TaintOf): void {
  noteBoundChecks(node, taintOf);
  noteStateChecks(node, taintOf);
}

/** The findings of a write that sends nothing computed from a read: a bound (checked-bounds.ts) or a state checked on a read before it. */
export function checkedThenWritten(
  write: WriteSite,
  reads: Iterable<ReadSite | null>,
  sameModel: (read: ReadSite) => boolean,
  sourceCode: { getText(node: Node): string; visitorKeys: VisitorKeys },
  taintOf: TaintOf,
): PendingFinding[] {
  const read = [...reads];
  const states = [
    ...checkedStateChanges(write, sameModel, taintOf, sourceCode.visitorKeys),
    ...checkedStateUpdates(write, read, sameModel, sourceCode.visitorKeys),
  ];
  noteTransitions(states);
  const bounds = uncheckedBoundChanges(write, read, sameModel, sourceCode, taintOf);
  // A counter moved after a transition reported above, on its passed path (counted-transitions.ts).
  return [...bounds, ...states, ...(bounds.length + states.length === 0 ? countedTransitions(write) : [])];
}
