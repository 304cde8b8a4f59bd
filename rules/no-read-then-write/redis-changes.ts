// How a value read from Redis is changed in JavaScript besides arithmetic (taint.ts): a structure
// parsed from it grown or merged in place (`list.push(item)`, `Object.assign(state, patch)`), or
// a new one built around it (`{ ...state, seen: true }`, `[...list, item]`,
// `Object.assign({}, state, patch)`). Written back to the same key, each replaces what another
// replica wrote in between. Asked only for taints of Redis reads.
import type { TSESTree } from '@typescript-eslint/utils';
import { VALUE_PASS_THROUGH_FUNCTIONS } from '../../src/knowledge/orm-reads-writes.js';
import { DECODING_CALLS } from '../../src/knowledge/loaded-value-forms.js';
import { BYTE_CODING_METHODS } from '../../src/knowledge/kv-buckets.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { FieldChange, ReadSite, Taint, WriteValue } from './model.js';

type TaintOf = (node: TSESTree.Node) => Taint | null;

/** Array methods that change the array they are called on. */
const GROWING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'splice', 'pop', 'shift']);

const change = (node: TSESTree.Node, field: string | null): FieldChange => ({
  field,
  node,
  operator: null,
  operand: null,
  readField: null,
});

/** The Redis read `node` holds as it was read (not a value computed from it), or null. */
function parsedRead(node: TSESTree.Node | undefined, taintOf: TaintOf): Taint | null {
  if (!node || node.type === 'SpreadElement') return null;
  const taint = taintOf(node);
  return taint?.read.redisKeys && !taint.computed ? taint : null;
}

function isObjectAssign(callee: TSESTree.Node): boolean {
  return (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Object' &&
    memberPropertyName(callee) === 'assign'
  );
}

/** A change to a value read, and the read it is remembered on until the value is written back. */
export interface ReadChange {
  read: ReadSite;
  change: FieldChange;
}

/** Remembers `found` on its read; whether there was one. */
export function remember(found: ReadChange | null): boolean {
  if (found) found.read.mutations.push(found.change);
  return found !== null;
}

/** `state.seen = true` on a value parsed from Redis: not arithmetic, but the whole value is written back. */
export function redisFieldSetOf(target: TSESTree.MemberExpression, at: TSESTree.Node, taintOf: TaintOf): ReadChange | null {
  const taint = parsedRead(target.object, taintOf);
  return taint ? { read: taint.read, change: change(at, memberPropertyName(target) ?? null) } : null;
}

/** `list.push(item)` / `Object.assign(state, patch)` on a value parsed from Redis: the change, and the read it is remembered on. */
export function redisMutationOf(call: TSESTree.CallExpression, taintOf: TaintOf): ReadChange | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return null;
  const target =
    isObjectAssign(callee) && call.arguments.length >= 2
      ? call.arguments[0]
      : GROWING_METHODS.has(memberPropertyName(callee) ?? '')
        ? callee.object
        : undefined;
  const taint = parsedRead(target, taintOf);
  return taint ? { read: taint.read, change: change(call, taint.field) } : null;
}

/** The value inside an encoding (`JSON.stringify(x)`, `String(x)`). */
function encoded(node: TSESTree.Node): TSESTree.Node {
  const expr = unwrapExpression(node);
  if (expr.type !== 'CallExpression' || expr.arguments.length === 0 || expr.arguments[0]?.type === 'SpreadElement') return expr;
  const callee = unwrapExpression(expr.callee);
  const name =
    callee.type === 'Identifier'
      ? callee.name
      : callee.type === 'MemberExpression' && callee.object.type === 'Identifier'
        ? `${callee.object.name}.${memberPropertyName(callee) ?? ''}`
        : '';
  const bytes = callee.type === 'MemberExpression' && BYTE_CODING_METHODS.includes(memberPropertyName(callee) ?? '');
  return bytes || DECODING_CALLS.includes(name) || VALUE_PASS_THROUGH_FUNCTIONS.includes(name) ? encoded(expr.arguments[0]!) : expr;
}

/** A value built around the read (`{ ...state, seen: true }`, `[...list, item]`, `Object.assign({}, state, patch)`) written to its key. */
export function redisChangeOf(value: WriteValue, taint: Taint, taintOf: TaintOf): FieldChange | null {
  const expr = encoded(value.value);
  let parts: readonly (TSESTree.Node | null)[] = [];
  if (expr.type === 'ObjectExpression') parts = expr.properties.map((p) => (p.type === 'SpreadElement' ? p.argument : null));
  else if (expr.type === 'ArrayExpression') parts = expr.elements.map((e) => (e?.type === 'SpreadElement' ? e.argument : null));
  else if (expr.type === 'CallExpression' && isObjectAssign(unwrapExpression(expr.callee))) parts = expr.arguments.slice(1);
  if (parts.length < 2) return null;
  const merged = parts.some((part) => part !== null && parsedRead(part, taintOf)?.read === taint.read);
  return merged ? change(expr, value.field) : null;
}
