// A count moved with a checked state's transition (check-then-act, the act a counter):
//
//   const member = await prisma.member.findUnique({ where: { id } });
//   if (member.optedIn) {
//     await prisma.member.update({ where: { id }, data: { optedIn: false } });   // the transition
//     await prisma.list.update({ where: { id: listId }, data: { optOuts: { increment: 1 } } });
//   }
//
// The transition is reported where it is made (checked-states.ts); the counter changed after it, on
// the same passed path, counts one event per request that passed the check: two requests (or
// replicas) both read `optedIn: true`, both move it and both count it. Reported at the counter's
// atomic change (Prisma `{ increment }` / `{ decrement }`, MongoDB `$inc`, the increment methods),
// whatever the counter's model, once the transition was reported; a transition that carries the old
// state in its filter (a conditional update) is no finding, and neither is the count after it.
import type { TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { blockHolds, passedCheck } from './control-flow.js';
import { atomicChangesOf } from './checked-bounds.js';
import type { PendingFinding, ReadSite, WriteSite } from './model.js';

type Node = TSESTree.Node;

interface Transition {
  read: ReadSite;
  field: string;
  check: TSESTree.IfStatement;
  write: Node;
}

/** The transitions reported in a file, by the function they were made in (the engine's walk order: a transition before its count). */
const transitions = new WeakMap<Node, Transition[]>();

/** Remembers the transitions among `found` (checked-state findings of one write). */
export function noteTransitions(found: readonly PendingFinding[]): void {
  for (const { read, write, changes, checkedBound, checkedState } of found) {
    const field = changes[0]?.field;
    const fn = enclosingFunction(write.node);
    if (!checkedState || !checkedBound || field == null || !fn) continue;
    const list = transitions.get(fn) ?? [];
    list.push({ read, field, check: checkedBound, write: write.node });
    transitions.set(fn, list);
  }
}

/** Whether `later` runs after `earlier` whenever `earlier` ran: the block holding `earlier` holds `later`, further on. */
const follows = (earlier: Node, later: Node): boolean => blockHolds(earlier, later) && earlier.range[1] <= later.range[0];

/** The pending finding of a counter changed atomically after a reported transition, on its passed path. */
export function countedTransitions(write: WriteSite): PendingFinding[] {
  const changes = atomicChangesOf(write);
  const fn = changes.length > 0 ? enclosingFunction(write.node) : undefined;
  for (const transition of (fn && transitions.get(fn)) ?? []) {
    const { read, field, check } = transition;
    if (transition.write === write.node || !follows(transition.write, write.node) || !passedCheck(check, write.node)) continue;
    const change = { field, node: changes[0]!.node, operator: null, operand: null };
    return [{ read, write, changes: [change], loc: undefined, checkedBound: check, checkedState: true, countedTransition: true }];
  }
  return [];
}
