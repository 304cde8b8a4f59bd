// Parts every library's rewrite uses: the simple `x ± n` change, object literal access, the
// checked bound and the rows-affected check after the write.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../../analysis/ast/unwrapped-expression.js';
import type { FieldChange, ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';
import {
  awaitedStatement,
  boundRewrite,
  removal,
  rowsCheckEdits,
  textOf,
  valueSlot,
  type BoundRewrite,
  type Reason,
  type ValueSlot,
} from './source.js';

export interface Simple extends FieldChange {
  field: string;
  operator: '+' | '-';
  operand: string;
}

export function property(object: TSESTree.Node | undefined, name: string): TSESTree.Property | undefined {
  const node = object && unwrapExpression(object);
  if (node?.type !== 'ObjectExpression') return undefined;
  return node.properties.find(
    (p): p is TSESTree.Property =>
      p.type === 'Property' &&
      !p.computed &&
      ((p.key.type === 'Identifier' && p.key.name === name) || (p.key.type === 'Literal' && p.key.value === name)),
  );
}

export function objectArgument(node: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined {
  const object = node && unwrapExpression(node);
  return object?.type === 'ObjectExpression' && object.properties.every((p) => p.type === 'Property') ? object : undefined;
}

/** `{ a }` → `{ a, <text> }`; `{}` → `{ <text> }`. */
export function appendProperty(object: TSESTree.ObjectExpression, text: string): TextEdit {
  const last = object.properties.at(-1);
  if (!last) return { start: object.range[0], end: object.range[1], text: `{ ${text} }` };
  return { start: last.range[1], end: last.range[1], text: `, ${text}` };
}

/** Replaces the value of the property the slot is in (a shorthand `{ views }` becomes `views: …`). */
export function slotReplacement(file: SourceFileInfo, slot: ValueSlot, value: string): TextEdit[] {
  const parent = slot.node.parent;
  const edits: TextEdit[] = [];
  if (parent?.type === 'Property' && parent.shorthand)
    edits.push({ start: parent.range[0], end: parent.range[1], text: `${textOf(file, parent.key)}: ${value}` });
  else edits.push({ start: slot.node.range[0], end: slot.node.range[1], text: value });
  if (slot.declaration) edits.push(removal(file, slot.declaration));
  return edits;
}

export function calleeMember(call: TSESTree.Node): TSESTree.MemberExpression | undefined {
  const node = unwrapExpression(call);
  if (node.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(node.callee);
  return callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' ? callee : undefined;
}

export function methodName(call: TSESTree.Node): string | undefined {
  const member = calleeMember(call);
  return member ? (member.property as TSESTree.Identifier).name : undefined;
}

export type Guard = { bound: BoundRewrite; statement: TSESTree.ExpressionStatement } | null;

/** The bound to keep and the `await write;` statement it follows, `null` when unchecked. */
export function guardOf(file: SourceFileInfo, facts: ReadThenWriteFacts): Guard | Reason {
  if (!facts.guarded || !facts.boundCheck) return null;
  if (facts.changes.length !== 1) return 'a checked bound with several changed fields; move the bound into the write filter by hand';
  const statement = awaitedStatement(facts.write);
  if (!statement) return 'the checked write is not a plain `await` statement; add the bound and the rows-affected check by hand';
  const change = facts.changes[0];
  const bound = boundRewrite(file, { ...facts, readField: change?.readField ?? change?.field ?? null }, statement);
  return typeof bound === 'string' ? bound : { bound, statement };
}

export function rowsCheck(file: SourceFileInfo, guard: NonNullable<Guard>, binding: string, failed: string): TextEdit[] | Reason {
  const edits = rowsCheckEdits(file, guard.statement, binding, failed, guard.bound.consequent);
  return typeof edits === 'string' ? edits : [...edits, removal(file, guard.bound.check)];
}

/** Where the changed value sits among the property values of a literal object. */
export function slotAmong(
  file: SourceFileInfo,
  facts: ReadThenWriteFacts,
  change: Simple,
  object: TSESTree.ObjectExpression,
): ValueSlot | Reason {
  return valueSlot(
    file,
    facts.write,
    change,
    object.properties.map((p) => (p as TSESTree.Property).value),
  );
}
